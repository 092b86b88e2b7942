package cdcdb

import (
	"bufio"
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layer is a level of the module's layering (see doc.go): a package
// imports only packages of its own layer or of the layers below it.
type layer int

const (
	layerBase     layer = iota // pgerror, types, temporal
	layerStorage               // the data file's bytes; rowcodec, the encodings of values in them
	layerRecords               // what the file keeps: metadata, versions
	layerFlows                 // change events applied in the write's transaction
	layerProtocol              // the PostgreSQL protocol
	layerFrontEnd              // SQL text to syntax trees; PostgreSQL's definitions
	layerSQLParts              // the packages split out of sql, below it
	layerSQL                   // sessions, binder, planner, executor
	layerHarness               // what tests drive the server with
	layerCommands              // programs
)

var layerNames = [...]string{"base", "storage", "records", "flows", "protocol", "front end", "sql parts", "sql", "harness", "commands"}

func (l layer) String() string { return layerNames[l] }

// allowList narrows which of the module's packages a package may import.
// The zero value narrows nothing: the layer rule alone applies.
type allowList struct {
	narrowed bool
	paths    []string // relative to the module, as in packageRules
}

// only allows the listed packages of the module and no other.
func only(paths ...string) allowList { return allowList{narrowed: true, paths: paths} }

// noModulePackage allows no package of the module.
var noModulePackage = only()

func (a allowList) allows(path string) bool { return !a.narrowed || slices.Contains(a.paths, path) }

// packageRule places one package: its layer, and what its doc.go promises
// beyond the layer rule.
type packageRule struct {
	layer layer
	// imports narrows what its non-test files may import from the module.
	imports allowList
	// testImports narrows what its test files may import from the module;
	// for a package that is nothing but tests.
	testImports allowList
	// forbidden lists outside packages its non-test files must not import
	// (patterns as the go command's: "os/..." is os and its subpackages).
	forbidden []string
}

// Packages that the packages doing no I/O must not import; pure logic
// must not read clocks or randomness either. (net/netip and net/url only
// parse, and types uses the first.)
var (
	doesIO         = []string{"os/...", "net", "net/http/...", "net/rpc/...", "syscall", "io/fs", "io/ioutil", "golang.org/x/sys/..."}
	clocksOrRandom = []string{"time", "math/rand/...", "crypto/rand"}
)

// packageRules places every package of the module, by its path relative
// to the module ("." is the module's root). A package missing here fails
// TestImportRules, and so does an entry for a package that is gone: a new
// package gets one line, with its layer and what its doc.go promises. The
// sql parts planned by issue 41 go in layerSQLParts, rowcodec in
// layerStorage and source in layerFlows:
//
//	"sql/builtins": {layer: layerSQLParts},
var packageRules = map[string]packageRule{
	".":            {layer: layerCommands, imports: noModulePackage}, // this documentation and its test
	"pgerror":      {layer: layerBase, imports: noModulePackage},
	"types":        {layer: layerBase, imports: only("pgerror"), forbidden: doesIO},
	"temporal":     {layer: layerBase, imports: noModulePackage, forbidden: slices.Concat(doesIO, clocksOrRandom)},
	"storage":      {layer: layerStorage, imports: only("pgerror")}, // bytes only: no types, no rowcodec
	"rowcodec":     {layer: layerStorage, imports: only("types", "storage"), forbidden: doesIO},
	"catalog":      {layer: layerRecords},
	"history":      {layer: layerRecords},
	"cdcexec":      {layer: layerFlows},
	"source":       {layer: layerFlows, imports: only("pgerror")},
	"wire":         {layer: layerProtocol, imports: only("pgerror")},
	"sql/ast":      {layer: layerFrontEnd},
	"sql/parse":    {layer: layerFrontEnd, imports: only("sql/ast", "pgerror")},
	"sql/pgdefs":   {layer: layerFrontEnd, imports: noModulePackage},
	"sql/eval":     {layer: layerSQLParts, imports: only("types", "pgerror"), forbidden: doesIO},
	"sql/builtins": {layer: layerSQLParts, imports: only("types", "pgerror", "sql/eval", "sql/parse"), forbidden: doesIO},
	"sql/spill":    {layer: layerSQLParts, imports: only("pgerror", "types")},
	"sql":          {layer: layerSQL},

	// The system relations: what they read of the session comes through
	// the Session interface they declare, never from package sql.
	"sql/catalogviews": {layer: layerSQLParts, imports: only("catalog", "pgerror", "source", "sql/ast", "sql/builtins", "sql/eval", "sql/parse", "sql/pgdefs", "storage", "types")},

	"storage/storagetest":   {layer: layerHarness},
	"rowcodec/rowcodectest": {layer: layerHarness, imports: only("types")},
	"sql/sqltest":           {layer: layerHarness},
	"pgtests":               {layer: layerHarness, testImports: only("pgtests/pgserver", "pgtests/corpus", "storage", "pgerror")},
	"pgtests/pgserver":      {layer: layerHarness, imports: noModulePackage},
	"pgtests/corpus":        {layer: layerHarness, imports: noModulePackage},

	"cmd/cdcdb":      {layer: layerCommands},
	"cmd/cdcbench":   {layer: layerCommands},
	"sql/pgdefs/gen": {layer: layerCommands, imports: noModulePackage},

	// COPY's data formats: values and errors, nothing of a session.
	"sql/copyfmt": {layer: layerSQLParts, imports: only("pgerror", "types"), forbidden: doesIO},

	// Who holds which privilege, and ACL arithmetic: answers over the
	// catalog, no I/O, no errors (package sql makes the 42501s).
	"acl": {layer: layerRecords, imports: only("catalog"), forbidden: slices.Concat(doesIO, clocksOrRandom)},
	// Run-time parameters: definitions, values and their scope as data;
	// applying them to a session is package sql's.
	"sql/settings": {layer: layerSQLParts, imports: only("pgerror", "sql/pgdefs", "types"), forbidden: doesIO},
}

// exclusiveImports are outside packages that only their owners may
// import in their non-test files, keeping the dependency behind the
// owners' API: the file format behind storage, PostgreSQL's protocol
// behind wire (the server side) and source (the replication client, whose
// pglogrepl speaks in pgproto3's messages).
var exclusiveImports = []struct {
	outside string
	owners  []string
}{
	{"go.etcd.io/bbolt/...", []string{"storage"}},
	{"github.com/jackc/pgx/v5/pgproto3/...", []string{"wire", "source"}},
	{"github.com/jackc/pglogrepl/...", []string{"source"}},
	// MariaDB's protocol is the benchmark's business alone: cdcbench
	// measures MariaDB as a peer; nothing in the server speaks it.
	{"github.com/go-sql-driver/mysql/...", []string{"cmd/cdcbench"}},
}

// modulePackage is one package of the module and what its files import,
// as import paths. testImports are those of its test files (internal and
// external), the package itself left out.
type modulePackage struct {
	path        string
	imports     []string
	testImports []string
}

// TestImportRules reads every package of the module from disk and holds
// its imports to packageRules and exclusiveImports.
func TestImportRules(t *testing.T) {
	modulePath, err := readModulePath("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := loadModule(".", modulePath)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d packages", len(pkgs))
	for _, v := range checkPlacement(modulePath, pkgs, packageRules) {
		t.Error(v)
	}
	for _, v := range checkImports(modulePath, pkgs, packageRules) {
		t.Error(v)
	}
}

// checkPlacement reports the packages packageRules does not place and its
// entries for packages the module does not have.
func checkPlacement(modulePath string, pkgs []modulePackage, rules map[string]packageRule) []string {
	var out []string
	present := map[string]bool{}
	for _, p := range pkgs {
		rel, _ := relativePath(modulePath, p.path)
		present[rel] = true
		if _, ok := rules[rel]; !ok {
			out = append(out, fmt.Sprintf("package %s has no place in packageRules (imports_test.go): give it a layer", rel))
		}
	}
	for rel := range rules {
		if !present[rel] {
			out = append(out, fmt.Sprintf("packageRules places %s, which the module does not have: remove the entry", rel))
		}
	}
	slices.Sort(out)
	return out
}

// checkImports reports every import that breaks a rule, for the packages
// packageRules places (checkPlacement reports the others).
func checkImports(modulePath string, pkgs []modulePackage, rules map[string]packageRule) []string {
	var out []string
	for _, p := range pkgs {
		from, _ := relativePath(modulePath, p.path)
		rule, ok := rules[from]
		if !ok {
			continue
		}
		for _, imp := range p.imports {
			to, inModule := relativePath(modulePath, imp)
			if !inModule {
				out = append(out, checkOutsideImport(from, rule, imp)...)
				continue
			}
			target, ok := rules[to]
			if !ok {
				continue
			}
			if target.layer > rule.layer {
				out = append(out, fmt.Sprintf("%s imports %s: imports point down, and %s (%s) is above %s (%s)", from, to, to, target.layer, from, rule.layer))
			}
			if !rule.imports.allows(to) {
				out = append(out, fmt.Sprintf("%s imports %s: its doc.go allows only %s of the module", from, to, describe(rule.imports)))
			}
		}
		for _, imp := range p.testImports {
			to, inModule := relativePath(modulePath, imp)
			if !inModule {
				continue
			}
			target, ok := rules[to]
			if !ok {
				continue
			}
			if target.layer > rule.layer && target.layer != layerHarness {
				out = append(out, fmt.Sprintf("a test of %s imports %s: tests may use the harness, but %s (%s) is above %s (%s)", from, to, to, target.layer, from, rule.layer))
			}
			if !rule.testImports.allows(to) {
				out = append(out, fmt.Sprintf("a test of %s imports %s: its doc.go allows its tests only %s of the module", from, to, describe(rule.testImports)))
			}
		}
	}
	slices.Sort(out)
	return out
}

func checkOutsideImport(from string, rule packageRule, imp string) []string {
	var out []string
	for _, ex := range exclusiveImports {
		if matchesPattern(imp, ex.outside) && !slices.Contains(ex.owners, from) {
			out = append(out, fmt.Sprintf("%s imports %s: only %s may import %s", from, imp, strings.Join(ex.owners, " and "), ex.outside))
		}
	}
	for _, f := range rule.forbidden {
		if matchesPattern(imp, f) {
			out = append(out, fmt.Sprintf("%s imports %s: its doc.go rules out %s", from, imp, f))
		}
	}
	return out
}

func describe(a allowList) string {
	if len(a.paths) == 0 {
		return "no package"
	}
	return strings.Join(a.paths, ", ")
}

// relativePath turns an import path of the module into its packageRules
// key; inModule is false for any other path.
func relativePath(modulePath, importPath string) (rel string, inModule bool) {
	if importPath == modulePath {
		return ".", true
	}
	if rest, ok := strings.CutPrefix(importPath, modulePath+"/"); ok {
		return rest, true
	}
	return importPath, false
}

// matchesPattern reports whether importPath matches pattern: the path
// itself, or with a "/..." suffix the path and its subpackages.
func matchesPattern(importPath, pattern string) bool {
	if path, ok := strings.CutSuffix(pattern, "/..."); ok {
		return importPath == path || strings.HasPrefix(importPath, path+"/")
	}
	return importPath == pattern
}

func readModulePath(goMod string) (string, error) {
	f, err := os.Open(goMod)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s names no module", goMod)
}

// buildContexts are the platforms and tags whose files are read: a file
// for another system (sockio_other.go) or for the race detector counts as
// much as the ones this machine builds.
var buildContexts = func() []build.Context {
	var out []build.Context
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, tags := range [][]string{nil, {"race"}} {
			ctx := build.Default
			ctx.GOOS, ctx.BuildTags = goos, tags
			out = append(out, ctx)
		}
	}
	return out
}()

// loadModule reads the imports of every package under root, skipping what
// the go command skips (testdata, and names starting with . or _) and
// nested modules.
func loadModule(root, modulePath string) ([]modulePackage, error) {
	var pkgs []modulePackage
	err := filepath.WalkDir(root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if dir != root {
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			return err
		}
		importPath := modulePath
		if rel != "." {
			importPath += "/" + filepath.ToSlash(rel)
		}
		p, found, err := readPackage(dir, importPath)
		if err != nil {
			return err
		}
		if found {
			pkgs = append(pkgs, p)
		}
		return nil
	})
	return pkgs, err
}

// readPackage reads the imports of the package in dir under every build
// context; found is false when no context has Go files there.
func readPackage(dir, importPath string) (p modulePackage, found bool, err error) {
	imports, testImports := map[string]bool{}, map[string]bool{}
	for _, ctx := range buildContexts {
		bp, err := ctx.ImportDir(dir, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			continue
		}
		if err != nil {
			return modulePackage{}, false, fmt.Errorf("%s (GOOS=%s, tags %v): %w", dir, ctx.GOOS, ctx.BuildTags, err)
		}
		found = true
		for _, imp := range bp.Imports {
			imports[imp] = true
		}
		for _, imp := range slices.Concat(bp.TestImports, bp.XTestImports) {
			if imp != importPath {
				testImports[imp] = true
			}
		}
	}
	p = modulePackage{path: importPath}
	for imp := range imports {
		p.imports = append(p.imports, imp)
	}
	for imp := range testImports {
		p.testImports = append(p.testImports, imp)
	}
	slices.Sort(p.imports)
	slices.Sort(p.testImports)
	return p, found, nil
}
