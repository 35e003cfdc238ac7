// Package tournament is the pure logic of tournaments.
package tournament
