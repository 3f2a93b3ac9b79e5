// Copyright 2026 pulumi-platform contributors. Licensed under the Apache License, Version 2.0.

// Command pulumi-language-nodejs is a MINIMAL STAND-IN for Pulumi's Node.js language host.
//
// Why it exists: scripts/ensure-pulumi-cli.sh builds the Pulumi CLI from the Go module proxy. The upstream
// language host lives in its own module (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3);
// when the proxy we can reach refuses to serve that module, the script builds this file instead (and says so
// loudly). It is written from scratch against the public LanguageRuntime gRPC protocol (sdk/v3/proto/go), not
// copied from upstream.
//
// What it does: exactly what `pulumi up/preview/destroy/refresh` need from a language host to run a Node.js
// program. The program itself is run by the installed SDK's own entry point, `@pulumi/pulumi/cmd/run`
// (resolved from the program directory, so it is always the project's SDK version), with the same flags and
// PULUMI_CONFIG* / PULUMI_NODEJS_* environment variables the upstream host uses. TypeScript is therefore
// handled by the SDK itself (ts-node registration in cmd/run), exactly as with the upstream host.
//
// What it deliberately does NOT do (upstream features this project does not use):
//   - GetRequiredPlugins/GetRequiredPackages return nothing: provider plugins are loaded on demand when the
//     program registers a resource (the dynamic provider `pulumi-resource-pulumi-nodejs` is found on PATH).
//   - InstallDependencies does not run npm/yarn/pnpm (`pulumi install` is a no-op; run `npm ci` yourself).
//   - No RunPlugin (Node.js-authored provider plugins), policy packs, code generation, `pulumi new` templating,
//     package-manager detection or dependency reporting in `pulumi about`.
//   - No synchronous-invoke pipes (`--sync`), which only deprecated synchronous invokes need.
//
// The version it reports is the one stamped into sdk/v3/go/common/version at build time (the CLI's version).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Exit code with which @pulumi/pulumi/cmd/run signals "the error was already reported to the user"
// (nodeJSProcessExitedAfterLoggingUserActionableMessage in the SDK): the engine must then just bail.
const exitedAfterLoggingUserActionableMessage = 32

// Flags the engine (or a person) may pass. Flags that take a value may be given as `-f=v` or `-f v`.
var valueFlags = map[string]bool{
	"tracing": true, "root": true, "v": true, "tsconfig": true, "nodeargs": true, "packagemanager": true,
}

type options struct {
	engineAddress string
	tracing       string
	showVersion   bool
}

// parseArgs is deliberately lenient: unknown flags (e.g. the engine's --logtostderr, -v=9, --logflow) are
// ignored rather than fatal, so a newer engine passing a new flag cannot break the host.
func parseArgs(args []string) options {
	var o options
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		if valueFlags[name] && !hasValue && i+1 < len(args) {
			i++
			value = args[i]
		}
		switch name {
		case "version":
			o.showVersion = true
		case "tracing":
			o.tracing = value
		}
	}
	if len(positional) > 0 {
		o.engineAddress = positional[len(positional)-1]
	}
	return o
}

func main() {
	opts := parseArgs(os.Args[1:])
	if opts.showVersion {
		fmt.Println(version.Version)
		return
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	h := &host{engineAddress: opts.engineAddress, tracing: opts.tracing}
	// Exit when the engine goes away (the engine normally kills us, but not if it crashed).
	if opts.engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, opts.engineAddress, 5*time.Minute, cancel); err != nil {
			fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: could not start health check against the engine: %v\n", err)
			os.Exit(1)
		}
	}

	stop := make(chan bool)
	go func() {
		<-ctx.Done()
		close(stop)
	}()
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stop,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, h)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: could not start the gRPC server: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of our stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: gRPC server stopped: %v\n", err)
		os.Exit(1)
	}
}

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	tracing       string
}

func (h *host) engine() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.engineAddress
}

func (h *host) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: strings.TrimPrefix(version.Version, "v")}, nil
}

//nolint:staticcheck // GetRequiredPlugins is deprecated upstream but older engines still call it.
func (h *host) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (h *host) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *host) About(ctx context.Context, _ *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find `node` on PATH")
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("running `%s --version`: %w", node, err)
	}
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimPrefix(strings.TrimSpace(string(out)), "v"),
		Metadata:   map[string]string{"languageHost": "pulumi-platform minimal stand-in"},
	}, nil
}

func (h *host) InstallDependencies(req *pulumirpc.InstallDependenciesRequest,
	server grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return server.Send(&pulumirpc.InstallDependenciesResponse{Stderr: []byte(
		"pulumi-language-nodejs (minimal stand-in): not installing dependencies; run `npm ci` yourself\n")})
}

// runtimeOptions are the `runtime.options` of Pulumi.yaml that change how the program is run.
type runtimeOptions struct {
	typescript bool
	tsconfig   string
	nodeargs   []string
}

func parseRuntimeOptions(info *pulumirpc.ProgramInfo) runtimeOptions {
	o := runtimeOptions{typescript: true} // upstream default: TypeScript support is on
	if info == nil || info.GetOptions() == nil {
		return o
	}
	m := info.GetOptions().AsMap()
	if v, ok := m["typescript"].(bool); ok {
		o.typescript = v
	}
	if v, ok := m["tsconfig"].(string); ok {
		o.tsconfig = v
	}
	if v, ok := m["nodeargs"].(string); ok {
		o.nodeargs = strings.Fields(v)
	}
	return o
}

// resolveRunScript finds @pulumi/pulumi/cmd/run as Node resolves it from the program directory, i.e. the
// project's own installed SDK.
func resolveRunScript(ctx context.Context, node, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, node, "-e", "console.log(require.resolve('@pulumi/pulumi/cmd/run'))")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("could not find @pulumi/pulumi from %s (is it installed? run `npm ci`): %v\n%s",
			dir, err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("could not find `node` on PATH; install Node.js or put it on PATH")
	}

	pwd := req.GetPwd()
	if pwd == "" {
		pwd = req.GetInfo().GetProgramDirectory()
	}
	if pwd == "" {
		if pwd, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	entry := req.GetInfo().GetEntryPoint()
	if entry == "" {
		entry = req.GetProgram()
	}
	if entry == "" {
		entry = "."
	}

	runScript, err := resolveRunScript(ctx, node, pwd)
	if err != nil {
		return nil, err
	}

	opts := parseRuntimeOptions(req.GetInfo())
	args := append([]string{}, opts.nodeargs...)
	args = append(args, runScript)
	add := func(flag, value string) {
		if value != "" {
			args = append(args, "--"+flag+"="+value)
		}
	}
	add("monitor", req.GetMonitorAddress())
	add("engine", h.engine())
	add("organization", req.GetOrganization())
	add("project", req.GetProject())
	add("stack", req.GetStack())
	add("pwd", pwd)
	add("root-directory", req.GetInfo().GetRootDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		add("parallel", fmt.Sprint(req.GetParallel()))
	}
	add("tracing", h.tracing)
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	config, err := json.Marshal(req.GetConfig())
	if err != nil {
		return nil, fmt.Errorf("marshalling config: %w", err)
	}
	secretKeys := append([]string{}, req.GetConfigSecretKeys()...)
	sort.Strings(secretKeys)
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("marshalling secret config keys: %w", err)
	}

	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretKeysJSON),
	)
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfig != "" {
		tsconfig := opts.tsconfig
		if !filepath.IsAbs(tsconfig) && req.GetInfo().GetRootDirectory() != "" {
			tsconfig = filepath.Join(req.GetInfo().GetRootDirectory(), tsconfig)
		}
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}

	// Not CommandContext: the engine cancels by signalling the program through the monitor, and killing node
	// mid-update would lose state. The engine kills this whole process tree if it has to.
	cmd := exec.Command(node, args...)
	cmd.Dir = pwd
	cmd.Env = env
	cmd.Stdout = os.Stdout // the engine shows our stdout/stderr as the program's output
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitedAfterLoggingUserActionableMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run %s): %v", node, err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}
