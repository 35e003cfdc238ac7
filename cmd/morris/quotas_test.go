package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/morrisgame/morris/internal/server"
)

// TestQuotaFlags: the quotas' flags reach the service's configuration,
// their defaults are the service's, and values that would shut honest
// players out or mean nothing are refused before anything starts.
func TestQuotaFlags(t *testing.T) {
	parse := func(args ...string) (quotaConfig, error) {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		read := quotaFlags(fs)
		if err := fs.Parse(args); err != nil {
			return quotaConfig{}, err
		}
		return read()
	}
	q, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	var cfg server.Config
	q.apply(&cfg)
	if cfg.Quotas != server.DefaultQuotas || cfg.Rates != server.DefaultRates {
		t.Errorf("the defaults: got %+v and %+v, want the service's", cfg.Quotas, cfg.Rates)
	}
	q, err = parse("-vacation-days", "30", "-chat-rate", "0.5", "-chat-after-end", "1m", "-chat-kept", "300", "-draw-offer-plies", "10",
		"-takeback-delay", "5s", "-analysis-queue", "4", "-analysis-per-address", "2", "-review-rate", "36", "-reviews-per-address", "5", "-puzzle-rate", "2")
	if err != nil {
		t.Fatal(err)
	}
	cfg = server.Config{}
	q.apply(&cfg)
	want := server.Quotas{VacationDays: 30, ChatAfterEnd: time.Minute, ChatKept: 300, DrawOfferPlies: 10, TakebackDelay: 5 * time.Second,
		AnalysisQueue: 4, AnalysisPerAddress: 2, ReviewsQueued: 5}
	if cfg.Quotas != want {
		t.Errorf("quotas: got %+v, want %+v", cfg.Quotas, want)
	}
	if cfg.Rates.Chat != 0.5 || cfg.Rates.Review != 0.01 || cfg.Rates.Puzzle != 2 || cfg.Rates.Command != server.DefaultRates.Command {
		t.Errorf("rates: got %+v", cfg.Rates)
	}
	for _, args := range [][]string{
		{"-vacation-days", "0"}, {"-vacation-days", "400"}, {"-chat-rate", "0"}, {"-chat-after-end", "0s"}, {"-chat-kept", "10"},
		{"-draw-offer-plies", "0"}, {"-takeback-delay", "0s"}, {"-analysis-queue", "0"}, {"-analysis-per-address", "0"},
		{"-analysis-queue", "2", "-analysis-per-address", "3"}, {"-review-rate", "-1"}, {"-reviews-per-address", "0"}, {"-puzzle-rate", "0"},
	} {
		if _, err := parse(args...); err == nil || !strings.Contains(err.Error(), args[len(args)-2]) {
			t.Errorf("%v: got %v, want an error naming %s", args, err, args[len(args)-2])
		}
	}
	if code := run([]string{"serve", "-pbm-addr", "", "-analysis-queue", "0"}, strings.NewReader(""), io.Discard, io.Discard); code != exitUsage {
		t.Errorf("serve -analysis-queue 0: exit %d, want %d", code, exitUsage)
	}
}
