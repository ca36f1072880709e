package config

import (
	"errors"
	"testing"
	"time"

	zk "github.com/zalando/go-keyring"

	"github.com/testctl/testctl/pkg/keyring"
)

// The key's precedence: flag > environment > the config file > the keyring,
// which is asked only when nothing above holds a key. The keyring here is
// the real backend over the library's in-memory mock.
func TestAPIKeyPrecedenceEndsWithTheKeyring(t *testing.T) {
	zk.MockInit()
	store := &keyring.Store{Backend: keyring.System{}, Timeout: time.Second}
	const base = "https://api.example.com"
	if err := store.Set(keyring.Service(base), "work", "keyring-key"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flag, env, file, want string
		src                   Source
	}{
		{"flag-key", "env-key", "file-key", "flag-key", SourceFlag},
		{"", "env-key", "file-key", "env-key", SourceEnv},
		{"", "", "file-key", "file-key", SourceProfile},
		{"", "", "", "keyring-key", SourceKeyring},
	} {
		file := "current_profile: work\nprofiles:\n  work:\n    base_url: " + base + "\n"
		if tc.file != "" {
			file += "    api_key: " + tc.file + "\n"
		}
		c := loadLayers(t, writeConfig(t, file), "api-key", tc.flag, "TESTCTL_API_KEY", tc.env, store)
		if key, src, err := c.APIKey(); key != tc.want || src != tc.src || err != nil {
			t.Errorf("%+v: got %q from %s (%v)", tc, key, src, err)
		}
	}
}

// With the key given, a keyring that would fail is never asked; without
// it, its failure is the answer, never an empty key.
func TestAPIKeyKeyringAskedOnlyWhenNeeded(t *testing.T) {
	zk.MockInitWithError(errors.New("locked"))
	store := &keyring.Store{Backend: keyring.System{}, Timeout: time.Second}
	path := writeConfig(t, "profiles:\n  default:\n    base_url: https://api.example.com\n")
	load := func(e map[string]string) *Config {
		fs := globalFlags()
		_ = fs.Parse([]string{"--config-file", path})
		c, err := Load(Options{Flags: fs, LookupEnv: env(e), Keyring: store})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if key, src, err := load(map[string]string{"TESTCTL_API_KEY": "env-key"}).APIKey(); key != "env-key" || src != SourceEnv || err != nil {
		t.Errorf("with the environment: %q %s %v", key, src, err)
	}
	var ke *keyring.Error
	if key, _, err := load(nil).APIKey(); key != "" || !errors.As(err, &ke) {
		t.Errorf("a failing keyring: %q %v", key, err)
	}
}
