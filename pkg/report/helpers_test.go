package report

import "github.com/testctl/testctl/pkg/verdict"

func strp(s string) *string { return &s }

func decide(recs []verdict.Record) verdict.Verdict { return verdict.Decide(recs, verdict.Options{}) }
