// Package storetest gives tests a fresh database of each backend: SQLite
// in a temporary folder always, and PostgreSQL when MORRIS_TEST_POSTGRES
// holds a DSN (`export MORRIS_TEST_POSTGRES=$(bash .ci/postgres.sh)`), each
// test in a schema of its own, dropped afterwards. The packages above the
// store run their suites on both with it.
//
// It also mounts the disks that misbehave (disks.go): a small one that
// fills up (SmallDisk, Fill) and a slow one (SlowDisk); and Log (log.go),
// a server's log that a test reads while the server writes it.
//
// Where things are:
//
//	storetest.go  Each (a test run on each backend, PostgreSQL skipped unless configured), DSN (a new, empty database)
//	disks.go      SmallDisk and Fill (a tmpfs that fills up), SlowDisk (FUSE, every fsync held); Linux, as root
//	log.go        Log: a server's log that a test reads while the server's goroutines write it
package storetest
