// The emulator driven by the official Go client (gitlab.com/gitlab-org/api/client-go).
//
// TestMain starts two emulators from the built package (dist/, `npm run
// build`), as a user would run one: the default seed (a hosted instance) and
// the self-managed seed (whose instance has /application/settings). Each is a
// real process on loopback, stopped when the tests end.
package emulator_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The seed users' tokens (src/emulator/seeds/default.ts).
var tokens = map[string]string{
	"root":       "glpat-root-token",
	"alice":      "glpat-alice-token",
	"maintainer": "glpat-maintainer-token",
	"dev":        "glpat-dev-token",
	"guest":      "glpat-guest-token",
	"outsider":   "glpat-outsider-token",
}

// The emulators' base URLs, set by TestMain.
var hostedURL, selfManagedURL string

type emulator struct {
	cmd *exec.Cmd
	url string
}

func repoRoot() string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return root
}

// nodeBinary is the project's own Node.js (the `node` devDependency) when installed, else the one on PATH.
func nodeBinary(root string) string {
	local := filepath.Join(root, "node_modules", ".bin", "node")
	if _, err := os.Stat(local); err == nil {
		return local
	}
	return "node"
}

// startEmulator runs `node dist/emulator/bin.js --port 0 --ready-file F` and waits for F, which holds the URL.
func startEmulator(root, dir, name string, args ...string) (*emulator, error) {
	ready := filepath.Join(dir, name+".url")
	log, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(nodeBinary(root), append([]string{"dist/emulator/bin.js", "--port", "0", "--ready-file", ready, "--quiet"}, args...)...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = log, log
	stopWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(60 * time.Second)
	for {
		if data, err := os.ReadFile(ready); err == nil {
			return &emulator{cmd: cmd, url: strings.TrimSpace(string(data))}, nil
		}
		select {
		case err := <-exited:
			out, _ := os.ReadFile(log.Name())
			return nil, fmt.Errorf("emulator %s exited before it was ready (%v):\n%s", name, err, out)
		case <-deadline:
			_ = cmd.Process.Kill()
			return nil, fmt.Errorf("emulator %s not ready after 60s", name)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (e *emulator) stop() {
	_ = e.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		_, _ = e.cmd.Process.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = e.cmd.Process.Kill()
	}
}

// writeSelfManagedSeed writes the package's self-managed seed as JSON, the form --seed reads.
func writeSelfManagedSeed(root, dir string) (string, error) {
	file := filepath.Join(dir, "self-managed-seed.json")
	script := `require("fs").writeFileSync(process.argv[1], JSON.stringify(require("./dist/emulator").selfManagedSeed))`
	cmd := exec.Command(nodeBinary(root), "-e", script, file)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("writing the self-managed seed: %v\n%s", err, out)
	}
	return file, nil
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root := repoRoot()
	if _, err := os.Stat(filepath.Join(root, "dist", "emulator", "bin.js")); err != nil {
		fmt.Fprintln(os.Stderr, "dist/emulator/bin.js is missing: run `npm run build` first (`npm run test:go` does)")
		return 1
	}
	dir, err := os.MkdirTemp("", "emulator-go-client-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	seed, err := writeSelfManagedSeed(root, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	type started struct {
		e   *emulator
		err error
	}
	hostedC, selfManagedC := make(chan started), make(chan started)
	go func() { e, err := startEmulator(root, dir, "hosted"); hostedC <- started{e, err} }()
	go func() {
		e, err := startEmulator(root, dir, "self-managed", "--seed", seed)
		selfManagedC <- started{e, err}
	}()
	hosted, selfManaged := <-hostedC, <-selfManagedC
	for _, s := range []started{hosted, selfManaged} {
		if s.e != nil {
			defer s.e.stop()
		}
	}
	for _, s := range []started{hosted, selfManaged} {
		if s.err != nil {
			fmt.Fprintln(os.Stderr, s.err)
			return 1
		}
	}
	hostedURL, selfManagedURL = hosted.e.url, selfManaged.e.url
	return m.Run()
}
