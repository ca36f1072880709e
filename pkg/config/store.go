package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Set stores a value in the active profile (or current_profile at top level)
// and saves the file. ctx ends a wait for the file's lock (see lock).
func (c *Config) Set(ctx context.Context, key, value string) error {
	return c.Save(ctx, map[string]string{key: value})
}

// Save stores several values and removes the keys of unset in one write,
// so that `auth login` keeps a key and the base URL it was checked against
// together or not at all.
func (c *Config) Save(ctx context.Context, values map[string]string, unset ...string) error {
	for key, value := range values {
		s, ok := Lookup(key)
		if !ok {
			return fmt.Errorf("unknown key %q", key)
		}
		if s.Validate != nil {
			if err := s.Validate(value); err != nil {
				return err
			}
		}
	}
	return c.update(ctx, func(f *File) bool {
		for key, value := range values {
			f.set(c.profile, key, value)
		}
		for _, key := range unset {
			f.unset(c.profile, key)
		}
		return true
	})
}

// Unset removes a value from the active profile and saves the file. It
// reports whether there was anything to remove.
func (c *Config) Unset(ctx context.Context, key string) (bool, error) {
	if _, ok := Lookup(key); !ok {
		return false, fmt.Errorf("unknown key %q", key)
	}
	if _, err := os.Stat(c.path); c.path == "" || errors.Is(err, fs.ErrNotExist) {
		return false, nil // nothing to remove, and no directory or lock to leave behind
	}
	var removed bool
	err := c.update(ctx, func(f *File) bool {
		removed = f.unset(c.profile, key)
		return removed
	})
	return removed, err
}

// update applies change to the file as it is on disk now, under the lock,
// so that concurrent commands changing different keys all land. change
// reports whether there is anything to write.
func (c *Config) update(ctx context.Context, change func(*File) bool) error {
	if c.path == "" {
		return &FileError{Op: "writing", Err: c.pathErr} // which names the fix
	}
	if err := prepareDir(c.path, c.ownDir); err != nil {
		return err
	}
	unlock, err := c.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	f, _, err := readFile(ctx, c.path)
	if err != nil {
		return err
	}
	if change(f) {
		if err := f.write(c.path); err != nil {
			return err
		}
	}
	c.file = f
	return nil
}

func (f *File) set(profile, key, value string) {
	if key == KeyCurrentProfile {
		f.CurrentProfile = value
		return
	}
	if f.Profiles == nil {
		f.Profiles = map[string]map[string]string{}
	}
	if f.Profiles[profile] == nil {
		f.Profiles[profile] = map[string]string{}
	}
	f.Profiles[profile][key] = value
}

func (f *File) unset(profile, key string) bool {
	if key == KeyCurrentProfile {
		had := f.CurrentProfile != ""
		f.CurrentProfile = ""
		return had
	}
	p := f.Profiles[profile]
	if _, ok := p[key]; !ok {
		return false
	}
	delete(p, key)
	// An empty profile goes, unless it is the current one: current_profile
	// would then name a profile the file does not have.
	if len(p) == 0 && !strings.EqualFold(f.CurrentProfile, profile) {
		delete(f.Profiles, profile)
	}
	return true
}
