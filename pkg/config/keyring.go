package config

import (
	"errors"
	"fmt"

	"github.com/testctl/testctl/pkg/keyring"
)

// APIKey resolves the key: flag > environment > the active profile of the
// config file, then the keyring, which is asked only when none of those
// holds one (so that CI, with TESTCTL_API_KEY, never waits on it). A
// keyring that fails or does not answer is an error (*keyring.Error, exit
// 4), never an empty key; one that cannot be reached at all (no D-Bus
// session) holds nothing.
func (c *Config) APIKey() (string, Source, error) {
	key, src := c.GetWithSource(KeyAPIKey)
	service := c.keyringService()
	if src != SourceNone || c.keyring == nil || service == "" {
		return key, src, nil
	}
	key, err := c.keyring.Get(service, c.profile)
	switch {
	case err == nil:
		return key, SourceKeyring, nil
	case errors.Is(err, keyring.ErrNotFound), errors.Is(err, keyring.ErrNoSession):
		return "", SourceNone, nil
	}
	return "", SourceNone, err
}

// keyringService is the keyring entry of the active base URL, "" without one.
func (c *Config) keyringService() string {
	if base := c.Get(KeyBaseURL); base != "" {
		return keyring.Service(base)
	}
	return ""
}

// KeyringEntry describes where the active profile's key is kept in the
// keyring, for messages.
func (c *Config) KeyringEntry() string {
	return fmt.Sprintf("service %q, account %q", c.keyringService(), c.profile)
}

// StoreKeyInKeyring keeps the active profile's key in the keyring, under
// the active base URL.
func (c *Config) StoreKeyInKeyring(key string) error {
	switch {
	case c.keyring == nil:
		return errors.New("no OS keyring")
	case c.keyringService() == "":
		return errors.New("no base URL to keep the key under")
	}
	return c.keyring.Set(c.keyringService(), c.profile, key)
}

// RemoveKeyFromKeyring removes the active profile's key from the keyring;
// removed is false when there was none, or no keyring to ask.
func (c *Config) RemoveKeyFromKeyring() (removed bool, err error) {
	if c.keyring == nil || c.keyringService() == "" {
		return false, nil
	}
	err = c.keyring.Delete(c.keyringService(), c.profile)
	if errors.Is(err, keyring.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
