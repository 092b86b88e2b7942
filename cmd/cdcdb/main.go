package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cdcdb/sql"
	"cdcdb/storage"
	"cdcdb/wire"
)

// config is what the command line says.
type config struct {
	listen   string
	data     string
	password string
	tlsCert  string
	tlsKey   string
	tlsMode  string
	dialect  string
	noSync   bool
	idleTx   time.Duration
	maxConns int
	pprof    string
	memLimit string
	// gcHeadroom paces the collector (gcpace.go).
	gcHeadroom string
	memtable   string
	cache      string
}

func main() {
	restartWithLazyFree()
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "check" {
		return runCheck(args[1:], os.Stdout, os.Stderr)
	}
	var cfg config
	fs := flag.NewFlagSet("cdcdb", flag.ContinueOnError)
	fs.StringVar(&cfg.listen, "listen", "127.0.0.1:5433", "address to listen on (host:port; port 0 picks a free one)")
	fs.StringVar(&cfg.data, "data", "cdcdb.db", "the database file (created if missing)")
	fs.StringVar(&cfg.password, "password", os.Getenv("CDCDB_PASSWORD"), "password every client must give (SCRAM-SHA-256); default $CDCDB_PASSWORD")
	fs.StringVar(&cfg.tlsCert, "tls-cert", "", "TLS certificate file (PEM)")
	fs.StringVar(&cfg.tlsKey, "tls-key", "", "TLS private key file (PEM)")
	fs.StringVar(&cfg.tlsMode, "tls", "", "auto: make a self-signed certificate on first start, kept beside the data file (DATA.crt, DATA.key), and reuse it")
	fs.StringVar(&cfg.dialect, "dialect", "postgres", "default SQL dialect of sessions: postgres or databricks")
	fs.BoolVar(&cfg.noSync, "no-sync", false, "skip fsync on commit (faster, loses recent commits on power loss)")
	fs.DurationVar(&cfg.idleTx, "idle-in-transaction-timeout", 10*time.Minute, "close sessions idle inside a transaction this long (0: never)")
	fs.IntVar(&cfg.maxConns, "max-connections", 100, "maximum concurrent client connections")
	fs.StringVar(&cfg.pprof, "pprof", "", "serve Go's profiler (net/http/pprof) on this loopback address, e.g. 127.0.0.1:6060 (default off)")
	fs.StringVar(&cfg.memLimit, "memory-limit", "384MiB", "soft limit of the server's heap: the garbage collector works harder to stay under it (0: none; when not given, $GOMEMLIMIT wins if set)")
	fs.StringVar(&cfg.gcHeadroom, "gc-headroom", "128MiB", "the heap grows by this much, or by what is live when more, between garbage collections (0: Go's pace, or $GOGC's; when not given, $GOGC wins if set)")
	fs.StringVar(&cfg.memtable, "memtable", "48MiB", "changes kept in memory before they are checkpointed into the data file (at most twice this is held)")
	fs.StringVar(&cfg.cache, "block-cache", "64MiB", "blocks of the data file that reads keep in memory (0: none)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if os.Getenv("GOMEMLIMIT") != "" && !flagGiven(fs, "memory-limit") {
		cfg.memLimit = "0" // the runtime has taken $GOMEMLIMIT already
	}
	if os.Getenv("GOGC") != "" && !flagGiven(fs, "gc-headroom") {
		cfg.gcHeadroom = "0" // the runtime has taken $GOGC already
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if err := serve(cfg, log); err != nil {
		fmt.Fprintln(os.Stderr, "cdcdb:", err)
		return 1
	}
	return 0
}

func serve(cfg config, log *slog.Logger) error {
	if cfg.dialect != "postgres" && cfg.dialect != "databricks" {
		return fmt.Errorf("-dialect must be postgres or databricks, not %q", cfg.dialect)
	}
	host, _, err := net.SplitHostPort(cfg.listen)
	if err != nil {
		return fmt.Errorf("-listen %q: %v", cfg.listen, err)
	}
	if cfg.password == "" && !isLoopback(host) {
		return fmt.Errorf("refusing to listen on %s without a password: anyone who can reach it could read and change every table; set -password (or CDCDB_PASSWORD), or listen on 127.0.0.1", cfg.listen)
	}
	if cfg.pprof != "" {
		if err := startPprof(cfg.pprof, log); err != nil {
			return err
		}
	}
	tlsConfig, tlsSource, err := tlsConfigFor(cfg.tlsMode, cfg.tlsCert, cfg.tlsKey, cfg.data, host)
	if err != nil {
		return err
	}
	memLimit, err := parseBytes("-memory-limit", cfg.memLimit)
	if err != nil {
		return err
	}
	memtable, err := parseBytes("-memtable", cfg.memtable)
	if err != nil {
		return err
	}
	if memtable < 1<<20 {
		return fmt.Errorf("-memtable %s: must be at least 1MiB", cfg.memtable)
	}
	cache, err := parseBytes("-block-cache", cfg.cache)
	if err != nil {
		return err
	}
	if cache == 0 {
		cache = -1 // storage.Options: none, where 0 is the default
	}
	gcHeadroom, err := parseBytes("-gc-headroom", cfg.gcHeadroom)
	if err != nil {
		return err
	}
	if memLimit > 0 {
		debug.SetMemoryLimit(memLimit)
	}
	if gcHeadroom > 0 {
		defer startGCPacer(uint64(gcHeadroom)).stop()
	}
	fault, err := logWriteFault(os.Getenv(injectLogWriteFaultEnv))
	if err != nil {
		return err
	}
	if fault != nil {
		log.Warn("the server's writes of log records will fail, as a test asked", "variable", injectLogWriteFaultEnv, "value", os.Getenv(injectLogWriteFaultEnv))
	}
	db, err := storage.Open(cfg.data, storage.Options{
		NoSync: cfg.noSync, Timeout: 5 * time.Second, MemtableSize: memtable, BlockCacheSize: cache,
		Logger: log, InjectLogWriteFault: fault,
	})
	if err != nil {
		return fmt.Errorf("opening %s: %v", cfg.data, err)
	}
	defer db.Close()
	engine, err := sql.NewEngine(db, sql.Options{Logger: log, Dialect: cfg.dialect})
	if err != nil {
		return fmt.Errorf("loading %s: %v", cfg.data, err)
	}
	srv := wire.NewServer(wire.Config{
		Password:                 cfg.password,
		TLSConfig:                tlsConfig,
		MaxConnections:           cfg.maxConns,
		IdleInTransactionTimeout: cfg.idleTx,
		Logger:                   log,
	}, engine)
	// Catch signals before announcing the address: whoever reads the
	// listening line may stop the server at once.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return err
	}
	// Tests read this line to learn the port.
	fmt.Fprintf(os.Stderr, "cdcdb listening on %s\n", ln.Addr())
	log.Info("serving", "addr", ln.Addr().String(), "data", cfg.data, "tls", tlsSource, "auth", authMode(cfg.password))

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case sig := <-sigs:
		log.Info("shutting down", "signal", sig.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		log.Warn("shutdown", "err", err)
	}
	<-served
	return nil
}

func authMode(password string) string {
	if password == "" {
		return "trust"
	}
	return "scram-sha-256"
}

// isLoopback reports whether host names only this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// parseBytes reads a size such as 384MiB, 1GiB, 64MB or 1048576.
func parseBytes(flag, s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"kB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"B", 1}}
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range units {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%s %q: want a size such as 384MiB, 1GiB or 0", flag, s)
	}
	return n * mult, nil
}

// flagGiven reports whether the command line set the flag.
func flagGiven(fs *flag.FlagSet, name string) (given bool) {
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
