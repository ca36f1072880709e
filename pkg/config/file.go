package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/userfile"
	"github.com/testctl/testctl/pkg/yamlcheck"
)

// File is the YAML config file: named profiles and the current one.
type File struct {
	CurrentProfile string                       `yaml:"current_profile,omitempty"`
	Profiles       map[string]map[string]string `yaml:"profiles,omitempty"`

	// warnings are what the file holds that no setting reads (see lint).
	warnings []string
}

// FileError is a config file that could not be read or written. It is the
// contract's local failure, exit 8 (exitcode.Local: this package sits
// below cmdutil and cannot import it), never the usage code 2, which says
// the command line is wrong.
type FileError struct {
	Op   string // "reading", "writing", "locking"
	Path string
	Err  error
}

func (e *FileError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s the config file: %v", e.Op, e.Err)
	}
	return fmt.Sprintf("%s the config file %s: %v", e.Op, e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// ExitCode is the contract's local-failure code.
func (e *FileError) ExitCode() int { return 8 }

// DefaultPath is $XDG_CONFIG_HOME/testctl/config.yaml, else ~/.config/testctl/config.yaml.
// The home directory is read through getenv, like every other variable, so
// that a missing $HOME is seen the same way in tests and in use.
func DefaultPath(getenv func(string) string) (string, error) {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "testctl", "config.yaml"), nil
	}
	home := homeVariable()
	dir := getenv(home)
	if dir == "" {
		return "", fmt.Errorf("no config file location: $%s is not set; set XDG_CONFIG_HOME, TESTCTL_CONFIG or --config-file", home)
	}
	return filepath.Join(dir, ".config", "testctl", "config.yaml"), nil
}

// homeVariable names the variable os.UserHomeDir reads on this system.
func homeVariable() string {
	switch runtime.GOOS {
	case "windows":
		return "USERPROFILE"
	case "plan9":
		return "home"
	}
	return "HOME"
}

// MaxFileBytes bounds the config file: a few profiles take a few KiB.
const MaxFileBytes = 1 << 20

// readFile loads path, following symbolic links; a missing file is an
// empty config. Only a regular file is read: a FIFO or a device is
// refused without waiting on it.
func readFile(ctx context.Context, path string) (*File, fs.FileMode, error) {
	data, err := userfile.Read(ctx, path, userfile.Rule{Max: MaxFileBytes, Regular: true})
	if errors.Is(err, fs.ErrNotExist) {
		return &File{}, 0, nil
	}
	if err != nil {
		return nil, 0, &FileError{Op: "reading", Path: path, Err: err}
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, &FileError{Op: "reading", Path: path, Err: err}
	}
	f, err := decodeFile(data)
	if err != nil {
		return nil, 0, &FileError{Op: "reading", Path: path, Err: fmt.Errorf("not valid YAML (fix it, or move it away to start afresh): %w", relocate(err, data))}
	}
	f.warnings = lint(data)
	return f, info.Mode().Perm(), nil
}

// relocate puts a syntax error on the line to fix (yamlcheck.Locate) when
// yaml.v3 reported it where the block it breaks began.
func relocate(err error, data []byte) error {
	line, msg, ok := yamlcheck.Locate(err, data)
	if !ok {
		return err
	}
	return fmt.Errorf("yaml: line %d: %s", line, msg)
}

// decodeFile parses the file, folding names to lower case as the viper that
// resolves the settings folds its keys: "Prod" and "prod" are one profile,
// "Base_URL" is base_url, and a number is a string like any other value.
func decodeFile(data []byte) (*File, error) {
	var raw File
	if err := yaml.Unmarshal(data, &raw); err != nil {
		if typeErr, ok := errors.AsType[*yaml.TypeError](err); ok {
			// Its lines quote the value they could not place, which may
			// be an api_key: they say where, not what.
			for i, e := range typeErr.Errors {
				typeErr.Errors[i] = withoutValues(e)
			}
		}
		return nil, err
	}
	f := &File{CurrentProfile: raw.CurrentProfile, Profiles: map[string]map[string]string{}}
	for name, values := range raw.Profiles {
		p := f.Profiles[ProfileKey(name)]
		if p == nil {
			p = map[string]string{}
			f.Profiles[ProfileKey(name)] = p
		}
		for k, v := range values {
			p[strings.ToLower(k)] = v
		}
	}
	return f, nil
}

// ProfileKey is the name a profile is stored and looked up under: settings
// are case-insensitive, as viper's keys are, so "Prod" and "prod" are one
// profile.
func ProfileKey(name string) string { return strings.ToLower(name) }

// holdsKey reports whether any profile stores an API key.
func (f *File) holdsKey() bool {
	return slices.ContainsFunc(slices.Collect(maps.Values(f.Profiles)), func(p map[string]string) bool { return p[KeyAPIKey] != "" })
}

// ProfileNames lists the profiles, sorted.
func (f *File) ProfileNames() []string { return slices.Sorted(maps.Keys(f.Profiles)) }

// prepareDir makes path's directory 0700: the file may hold an API key. An
// existing directory is tightened only when it is testctl's own (ownDir);
// one named by --config-file or TESTCTL_CONFIG may be a project's or /tmp,
// whose mode is not testctl's to change.
func prepareDir(path string, ownDir bool) error {
	dir := filepath.Dir(path)
	_, statErr := os.Stat(dir)
	created := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &FileError{Op: "writing", Path: path, Err: err}
	}
	if created || ownDir {
		if err := os.Chmod(dir, 0o700); err != nil {
			return &FileError{Op: "writing", Path: path, Err: err}
		}
	}
	return nil
}

// write saves the file atomically with mode 0600. When path is a symbolic
// link (a config kept with one's dotfiles), the file it points to is
// replaced and the link stays.
func (f *File) write(path string) error {
	target, err := linkTarget(path)
	if err != nil {
		return &FileError{Op: "writing", Path: path, Err: err}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return &FileError{Op: "writing", Path: path, Err: err}
	}
	if err := atomicfile.Write(target, buf.Bytes(), 0o600); err != nil {
		return &FileError{Op: "writing", Path: path, Err: err}
	}
	return nil
}

// linkTarget follows path's symbolic links to the file they name, which may
// not exist yet.
func linkTarget(path string) (string, error) {
	const maxLinks = 40 // as Linux's limit on a path's links
	p := path
	for range maxLinks {
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("more than %d symbolic links", maxLinks)
}

// withoutValues is a yaml.v3 type error's line with the values it quotes
// (`sk-abc...`) replaced by "a value".
func withoutValues(line string) string {
	var b strings.Builder
	for {
		before, rest, ok := strings.Cut(line, "`")
		_, after, closed := strings.Cut(rest, "`")
		if !ok || !closed {
			return b.String() + line
		}
		b.WriteString(before + "a value")
		line = after
	}
}
