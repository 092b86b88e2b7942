package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
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
	"cdcdb/sql/parse"
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
	copyIdle time.Duration
	// maxMessage, maxStatements and maxPortals are wire's per-connection
	// limits.
	maxMessage    string
	maxStatements int
	maxPortals    int
	maxConns      int
	pprof         string
	memLimit      string
	memBudget     string
	// gcHeadroom paces the collector (gcpace.go).
	gcHeadroom string
	memtable   string
	cache      string
	// settings are server-wide parameter defaults (-c name=value).
	settings settingFlags
	// fastPathsOff are the fast paths the server leaves out (fastpaths.go).
	fastPathsOff fastPathsOff
	// passwordFile, when given, holds the password (-password-file).
	passwordFile string
	// hbaFile, authTimeout and reservedConns say who may connect
	// (connrules.go).
	hbaFile       string
	authTimeout   time.Duration
	reservedConns int
}

func main() {
	if wantsLazyFree(os.Args[1:]) {
		restartWithLazyFree()
	}
	os.Exit(run(os.Args[1:]))
}

// wantsLazyFree reports whether the command line leaves the lazy-free fast
// path on (lazyfree_linux.go). It is read before the flags are parsed for
// good, as the server may exec itself again first; a command line that
// does not parse says yes, and run reports its error.
func wantsLazyFree(args []string) bool {
	if len(args) > 0 && (args[0] == "check" || args[0] == "backup") {
		return true
	}
	var cfg config
	fs := flags(&cfg)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return true
	}
	return !cfg.fastPathsOff[fastLazyFree]
}

// Defaults of the memory flags that are cdcdb's own; the storage knobs'
// defaults are storage's (storage.DefaultMemtableSize,
// storage.DefaultBlockCacheSize).
const (
	defaultMemoryLimit = 384 << 20
	defaultGCHeadroom  = 128 << 20
)

// flags declares the command line into cfg.
func flags(cfg *config) *flag.FlagSet {
	fs := flag.NewFlagSet("cdcdb", flag.ContinueOnError)
	cfg.fastPathsOff = fastPathsOff{}
	fs.StringVar(&cfg.listen, "listen", "127.0.0.1:5433", "address to listen on (host:port; port 0 picks a free one)")
	fs.StringVar(&cfg.data, "data", "cdcdb.db", "the database file (created if missing)")
	fs.StringVar(&cfg.password, "password", os.Getenv("CDCDB_PASSWORD"), "require passwords (SCRAM-SHA-256); the first start makes this the superuser cdcdb's; default $CDCDB_PASSWORD (other local users can read the command line, not the environment)")
	fs.StringVar(&cfg.passwordFile, "password-file", "", "read -password from this file (its first line), kept out of the command line")
	fs.StringVar(&cfg.tlsCert, "tls-cert", "", "TLS certificate file (PEM)")
	fs.StringVar(&cfg.tlsKey, "tls-key", "", "TLS private key file (PEM)")
	fs.StringVar(&cfg.tlsMode, "tls", "", "auto: make a self-signed certificate on first start, kept beside the data file (DATA.crt, DATA.key), and reuse it")
	fs.StringVar(&cfg.dialect, "dialect", parse.DialectPostgres.String(), "default SQL dialect of sessions: postgres or databricks")
	fs.BoolVar(&cfg.noSync, "no-sync", false, "skip fsync on commit (faster, loses recent commits on power loss)")
	fs.DurationVar(&cfg.idleTx, "idle-in-transaction-timeout", 10*time.Minute, "close sessions idle inside a transaction this long (0: never)")
	fs.DurationVar(&cfg.copyIdle, "copy-idle-timeout", time.Minute, "close sessions whose COPY FROM STDIN receives nothing this long: a COPY holds the one writer slot (0: never)")
	fs.StringVar(&cfg.maxMessage, "max-message-size", formatSize(wire.DefaultMaxMessageSize), "largest message a client may send (a query, a Bind, a CopyData); a bigger one ends the connection with 08P01")
	fs.IntVar(&cfg.maxStatements, "max-prepared-statements", wire.DefaultMaxPreparedStatements, "named prepared statements one connection may hold at once (53400 past it)")
	fs.IntVar(&cfg.maxPortals, "max-portals", wire.DefaultMaxPortals, "named portals one connection may hold at once (53400 past it)")
	fs.IntVar(&cfg.maxConns, "max-connections", 100, "maximum concurrent client connections")
	fs.StringVar(&cfg.hbaFile, "hba-file", "", "connection rules in pg_hba.conf's format (host/hostssl/hostnossl, database, user, address, scram-sha-256/trust/reject); first match wins, no match is refused (docs/security.md)")
	fs.DurationVar(&cfg.authTimeout, "authentication-timeout", wire.DefaultAuthenticationTimeout, "close connections that have not finished logging in this long after connecting (1s to 10m)")
	fs.IntVar(&cfg.reservedConns, "superuser-reserved-connections", 3, "of -max-connections, slots only superusers may take")
	fs.StringVar(&cfg.pprof, "pprof", "", "serve Go's profiler (net/http/pprof) on this loopback address, e.g. 127.0.0.1:6060 (default off)")
	fs.StringVar(&cfg.memLimit, "memory-limit", formatSize(defaultMemoryLimit), "soft limit of the server's heap: the garbage collector works harder to stay under it (off: none; when not given, $GOMEMLIMIT wins if set)")
	fs.StringVar(&cfg.memBudget, "memory-budget", memoryBudgetAuto, "bytes all queries may hold at once (sorts' and hash tables' rows in memory, aggregate states, query texts, prepared statements); a query that would pass it fails with 53200 (auto: half the machine's or cgroup's memory, at least 256MiB; off: none)")
	fs.StringVar(&cfg.gcHeadroom, "gc-headroom", formatSize(defaultGCHeadroom), "the heap grows by this much, or by what is live when more, between garbage collections (off: Go's pace, or $GOGC's; when not given, $GOGC wins if set)")
	fs.StringVar(&cfg.memtable, "memtable", formatSize(storage.DefaultMemtableSize), "changes kept in memory before they are checkpointed into the data file (at most twice this is held; at least 1MiB)")
	fs.Var(&cfg.settings, "c", "a run-time parameter's default for every session, as postgres -c: -c name=value, repeatable (e.g. -c statement_timeout=30s)")
	fs.StringVar(&cfg.cache, "block-cache", formatSize(storage.DefaultBlockCacheSize), "blocks of the data file that reads keep in memory (off: none)")
	fs.Var(cfg.fastPathsOff, "fast-paths-off", fastPathsOffUsage())
	return fs
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "check" {
		return runCheck(args[1:], os.Stdout, os.Stderr)
	}
	if len(args) > 0 && args[0] == "backup" {
		return runBackup(args[1:], os.Stdout, os.Stderr)
	}
	var cfg config
	fs := flags(&cfg)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if cfg.passwordFile != "" {
		if flagGiven(fs, "password") {
			fmt.Fprintln(os.Stderr, "cdcdb: give -password or -password-file, not both")
			return 2
		}
		pw, err := readPasswordFile(cfg.passwordFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "cdcdb:", err)
			return 2
		}
		cfg.password = pw
	}
	if fs.NArg() > 0 {
		// -fast-paths-off stands alone, so "-fast-paths-off copy-ahead"
		// leaves a word behind: say so rather than ignore it.
		fmt.Fprintf(os.Stderr, "cdcdb: unexpected argument %q (a list of fast paths goes after -fast-paths-off=)\n", fs.Arg(0))
		return 2
	}
	if os.Getenv("GOMEMLIMIT") != "" && !flagGiven(fs, "memory-limit") {
		cfg.memLimit = sizeOffWord // the runtime has taken $GOMEMLIMIT already
	}
	if os.Getenv("GOGC") != "" && !flagGiven(fs, "gc-headroom") {
		cfg.gcHeadroom = sizeOffWord // the runtime has taken $GOGC already
	}
	if cfg.fastPathsOff[fastGCPacing] {
		if flagGiven(fs, "gc-headroom") && !strings.EqualFold(strings.TrimSpace(cfg.gcHeadroom), sizeOffWord) {
			fmt.Fprintf(os.Stderr, "cdcdb: -gc-headroom %s paces the collector, which -fast-paths-off=%s turns off; give one or the other\n", cfg.gcHeadroom, fastGCPacing)
			return 2
		}
		cfg.gcHeadroom = sizeOffWord
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if err := serve(cfg, log); err != nil {
		fmt.Fprintln(os.Stderr, "cdcdb:", err)
		return 1
	}
	return 0
}

func serve(cfg config, log *slog.Logger) error {
	dialect, ok := parse.DialectNamed(cfg.dialect)
	if !ok {
		return fmt.Errorf("-dialect must be postgres or databricks, not %q", cfg.dialect)
	}
	host, _, err := net.SplitHostPort(cfg.listen)
	if err != nil {
		return fmt.Errorf("-listen %q: %v", cfg.listen, err)
	}
	if err := checkConnectionLimits(cfg); err != nil {
		return err
	}
	rules, err := loadConnectionRules(cfg.hbaFile)
	if err != nil {
		return err
	}
	// Rules allow trust on loopback only, so a server with rules may
	// listen beyond it without a password: remote roles need their own.
	if cfg.password == "" && rules == nil && !isLoopback(host) {
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
	memLimit, err := parseSize("-memory-limit", cfg.memLimit, true)
	if err != nil {
		return err
	}
	memBudget, err := parseMemoryBudget(cfg.memBudget)
	if err != nil {
		return err
	}
	memtable, err := parseSize("-memtable", cfg.memtable, false)
	if err != nil {
		return err
	}
	if memtable < 1<<20 {
		return fmt.Errorf("-memtable %s: must be at least 1MiB", cfg.memtable)
	}
	maxMessage, err := parseSize("-max-message-size", cfg.maxMessage, false)
	if err != nil {
		return err
	}
	if maxMessage > 1<<30 {
		return fmt.Errorf("-max-message-size %s: PostgreSQL's protocol allows at most 1GiB", cfg.maxMessage)
	}
	if cfg.maxStatements < 1 || cfg.maxPortals < 1 {
		return fmt.Errorf("-max-prepared-statements and -max-portals must be at least 1")
	}
	cache, err := parseSize("-block-cache", cfg.cache, true)
	if err != nil {
		return err
	}
	if cache == sizeOff {
		cache = storage.NoBlockCache
	}
	gcHeadroom, err := parseSize("-gc-headroom", cfg.gcHeadroom, true)
	if err != nil {
		return err
	}
	if memLimit != sizeOff {
		debug.SetMemoryLimit(memLimit)
	}
	if gcHeadroom != sizeOff {
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
	if off := cfg.fastPathsOff.String(); off != "" {
		log.Info("running on the general paths", "fast_paths_off", off)
	}
	engine, err := sql.NewEngine(db, sql.Options{Logger: log, Dialect: dialect, Settings: cfg.settings.values,
		FastPathsOff: cfg.fastPathsOff.engine(), MemoryBudget: memBudget})
	if err != nil {
		if sde := (*sql.SettingDefaultError)(nil); errors.As(err, &sde) {
			return fmt.Errorf("-c %v", err)
		}
		return fmt.Errorf("loading %s: %v", cfg.data, err)
	}
	// The first start with a password makes it the bootstrap superuser's
	// (named cdcdb); every role then logs in with its own password.
	if err := engine.SetBootstrapPassword(cfg.password); err != nil {
		return fmt.Errorf("storing the superuser's password in %s: %v", cfg.data, err)
	}
	srv := wire.NewServer(withAdmission(cfg, rules, wire.Config{
		Password:                 cfg.password,
		Roles:                    engine,
		TLSConfig:                tlsConfig,
		MaxConnections:           cfg.maxConns,
		IdleInTransactionTimeout: cfg.idleTx,
		CopyIdleTimeout:          cfg.copyIdle,
		MaxMessageSize:           int(maxMessage),
		MaxPreparedStatements:    cfg.maxStatements,
		MaxPortals:               cfg.maxPortals,
		PlainSocketIO:            cfg.fastPathsOff[fastRawSocketIO],
		Logger:                   log,
	}), engine)
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
	log.Info("serving", "addr", ln.Addr().String(), "data", cfg.data, "tls", tlsSource, "auth", authMode(cfg.password, cfg.hbaFile))

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// The sources follow their upstreams again from where they stopped;
	// they stop before the database closes (deferred above, so run after).
	engine.StartSources()
	defer engine.StopSources()
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

func authMode(password, hbaFile string) string {
	if hbaFile != "" {
		return "rules of " + hbaFile
	}
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

// sizeOffWord turns off a size flag that can be off; parseSize returns it
// as sizeOff.
const (
	sizeOffWord       = "off"
	sizeOff     int64 = -1
)

// sizeUnits are the units a size may be given in, largest first within
// each kind, as formatSize writes them.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1000 * 1000 * 1000}, {"MB", 1000 * 1000}, {"kB", 1000}, {"B", 1}}

// parseSize reads a size flag: a positive size such as 384MiB, 1GiB, 64MB
// or 1048576, or, where canBeOff, "off" (returned as sizeOff). Zero is
// refused: storage.Options reads a zero size as the default, so a 0 that
// meant "none" here would mean one thing on the command line and another
// below it; "off" says none, and leaving the flag out says the default.
func parseSize(flag, s string, canBeOff bool) (int64, error) {
	if canBeOff && strings.EqualFold(strings.TrimSpace(s), sizeOffWord) {
		return sizeOff, nil
	}
	num, mult := strings.TrimSpace(s), int64(1)
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	switch {
	case err == nil && n == 0 && canBeOff:
		return 0, fmt.Errorf("%s %q: a size must be positive; %s turns it off, and leaving the flag out gives its default", flag, s, sizeOffWord)
	case err == nil && n == 0:
		return 0, fmt.Errorf("%s %q: a size must be positive; leaving the flag out gives its default", flag, s)
	case err != nil || n < 0 || n > (1<<62)/mult:
		want := "a size such as 384MiB or 1GiB"
		if canBeOff {
			want += ", or " + sizeOffWord
		}
		return 0, fmt.Errorf("%s %q: want %s", flag, s, want)
	}
	return n * mult, nil
}

// formatSize writes a size in the largest binary unit that divides it.
func formatSize(n int64) string {
	for _, u := range sizeUnits[:3] {
		if n >= u.mult && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// flagGiven reports whether the command line set the flag.
func flagGiven(fs *flag.FlagSet, name string) (given bool) {
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// readPasswordFile reads -password-file: its first line, without the line
// end. An empty password there is a mistake, not a request for trust.
func readPasswordFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("-password-file: %v", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		return "", fmt.Errorf("-password-file %s: the first line is empty", path)
	}
	return line, nil
}
