package main

import (
	"fmt"
	"os"
	"time"

	"cdcdb/wire"
)

// This file reads the flags that say who may connect: -hba-file (the
// connection rules, wire.ParseConnectionRules), -authentication-timeout
// and -superuser-reserved-connections, with PostgreSQL's bounds.

// loadConnectionRules reads -hba-file; nil when none is given. A line the
// rules cannot take stops the server with its number: running with rules
// misread could let in whom the file meant to keep out.
func loadConnectionRules(path string) (*wire.ConnectionRules, error) {
	if path == "" {
		return nil, nil
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-hba-file: %v", err)
	}
	rules, err := wire.ParseConnectionRules(string(text))
	if err != nil {
		return nil, fmt.Errorf("-hba-file %s: %v", path, err)
	}
	return rules, nil
}

// checkConnectionLimits holds -authentication-timeout and
// -superuser-reserved-connections to PostgreSQL's ranges.
func checkConnectionLimits(cfg config) error {
	if cfg.authTimeout < time.Second || cfg.authTimeout > 600*time.Second {
		return fmt.Errorf("-authentication-timeout %v: must be between 1s and 10m, as PostgreSQL's authentication_timeout", cfg.authTimeout)
	}
	if cfg.maxConns < 1 {
		return fmt.Errorf("-max-connections %d: must be at least 1", cfg.maxConns)
	}
	if cfg.reservedConns < 0 || cfg.reservedConns >= cfg.maxConns {
		return fmt.Errorf("-superuser-reserved-connections (%d) must be less than -max-connections (%d)", cfg.reservedConns, cfg.maxConns)
	}
	return nil
}

// withAdmission adds to w what the flags of this file say.
func withAdmission(cfg config, rules *wire.ConnectionRules, w wire.Config) wire.Config {
	w.ConnectionRules = rules
	w.AuthenticationTimeout = cfg.authTimeout
	w.SuperuserReservedConnections = cfg.reservedConns
	return w
}
