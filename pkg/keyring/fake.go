package keyring

import (
	"maps"
	"sync"
)

// Fake is an in-memory keyring for tests: one per test, so that no test
// reads or writes the keyring of the machine it runs on. Err makes every
// call fail; Block makes every call wait until the channel is closed.
type Fake struct {
	mu    sync.Mutex
	items map[[2]string]string
	Err   error
	Block chan struct{}
	Calls int
}

func (f *Fake) begin() error {
	f.mu.Lock()
	f.Calls++
	block, err := f.Block, f.Err
	f.mu.Unlock()
	if block != nil {
		<-block
	}
	return err
}

// Get returns the secret, or ErrNotFound.
func (f *Fake) Get(service, user string) (string, error) {
	if err := f.begin(); err != nil {
		return "", err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.items[[2]string{service, user}]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

// Set stores a secret.
func (f *Fake) Set(service, user, secret string) error {
	if err := f.begin(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.items == nil {
		f.items = map[[2]string]string{}
	}
	f.items[[2]string{service, user}] = secret
	return nil
}

// Delete removes a secret, or says ErrNotFound.
func (f *Fake) Delete(service, user string) error {
	if err := f.begin(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := [2]string{service, user}
	if _, ok := f.items[k]; !ok {
		return ErrNotFound
	}
	delete(f.items, k)
	return nil
}

// Items lists what the keyring holds, service and user to secret.
func (f *Fake) Items() map[[2]string]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return maps.Clone(f.items)
}
