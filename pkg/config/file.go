package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"go.yaml.in/yaml/v3"
)

// File is the YAML config file: named profiles and the current one.
type File struct {
	CurrentProfile string                       `yaml:"current_profile,omitempty"`
	Profiles       map[string]map[string]string `yaml:"profiles,omitempty"`
}

// DefaultPath is $XDG_CONFIG_HOME/testctl/config.yaml, else ~/.config/testctl/config.yaml.
func DefaultPath(getenv func(string) string) (string, error) {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "testctl", "config.yaml"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the config directory: set XDG_CONFIG_HOME or --config-file: %w", err)
	}
	return filepath.Join(home, ".config", "testctl", "config.yaml"), nil
}

// readFile loads path; a missing file is an empty config.
func readFile(path string) (*File, fs.FileMode, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{}, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("reading config file: %w", err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, fmt.Errorf("reading config file: %w", err)
	}
	var f File
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, 0, fmt.Errorf("config file %s is not valid: %w", path, err)
	}
	return &f, info.Mode().Perm(), nil
}

// holdsKey reports whether any profile stores an API key.
func (f *File) holdsKey() bool {
	for _, p := range f.Profiles {
		if p[KeyAPIKey] != "" {
			return true
		}
	}
	return false
}

// ProfileNames lists the profiles, sorted.
func (f *File) ProfileNames() []string {
	names := make([]string, 0, len(f.Profiles))
	for name := range f.Profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// write saves the file atomically with mode 0600 in a 0700 directory: it may
// hold an API key. An existing directory is tightened only when it is
// testctl's own (ownDir); one named by --config-file or TESTCTL_CONFIG may
// be a project's or /tmp, whose mode is not testctl's to change.
func (f *File) write(path string, ownDir bool) error {
	dir := filepath.Dir(path)
	_, statErr := os.Stat(dir)
	created := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating config directory: %w", err)
	}
	if created || ownDir {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("securing config directory: %w", err)
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("encoding config: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".config-*.yaml")
	if err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing config: %w", err)
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing config: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	return nil
}
