// Command seedlarge seeds one large organisation in one shard (issue 6 "Scale"): by default
// 1,000,000 donations and about 12,000,000 transactions over 5 years, with donors, campaigns,
// visits, pauses and discards with reasons. It prints how long it took.
//
// It takes the stack from the environment (APORTA_DIRECTORY_DSN, APORTA_SHARD_DSNS…): `make
// seed-large` sources .data/env (the dev stack: `make dev` running) unless the variables are set.
//
//	go run ./deploy/seedlarge -donations 1000000 -transactions 12000000
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/aporta/aporta/deploy/seedlarge/largeorg"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/tenants"
)

func main() {
	var o largeorg.Options
	flag.StringVar(&o.Country, "country", "AR", "shard (country) of the organisation")
	flag.StringVar(&o.Currency, "currency", "ARS", "currency of campaigns, donations and transactions")
	flag.Int64Var(&o.Donations, "donations", 1_000_000, "donations")
	flag.Int64Var(&o.Transactions, "transactions", 12_000_000, "transactions (approximate target)")
	flag.IntVar(&o.Campaigns, "campaigns", 20, "campaigns")
	flag.Int64Var(&o.Batch, "batch", 25_000, "donations per statement")
	flag.IntVar(&o.Workers, "workers", 2, "statements at a time")
	flag.Parse()
	o.Log = os.Stdout
	// Interrupted, the seed stops its statements and still rebuilds the indexes it dropped.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := config.FromEnv()
	if err == nil {
		err = cfg.DevOnly("seed-large") // it writes test data straight into the databases
	}
	if err != nil {
		log.Fatal(err)
	}
	cfg.DB.StatementTimeout = 0 // one statement inserts a batch of hundreds of thousands of rows
	t, err := tenants.Open(ctx, cfg.DirectoryDSN, cfg.ShardDSNs, cfg.DB)
	if err != nil {
		log.Fatal(err)
	}
	defer t.Close()
	r, err := largeorg.Seed(ctx, t, o)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("seed-large: organisation %s (%s shard): %d donations, %d transactions in %s\n",
		r.OrgID, o.Country, r.Donations, r.Transactions, r.Took.Round(1e9))
}
