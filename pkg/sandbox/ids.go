package sandbox

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Everything the sandbox invents (ids, history, telemetry, faults) is derived
// from hashes of the seed and a stable name instead of a shared random
// stream, so one request can never change what another one sees and a seed
// reproduces the same world whatever the order of requests.

// mix is splitmix64's finaliser: a cheap, well-distributed bijection.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// hashOf hashes the seed together with a list of names.
func hashOf(seed int64, parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return mix(h.Sum64() ^ mix(uint64(seed)))
}

// rngFor returns a generator private to one named thing.
func rngFor(seed int64, parts ...string) *rand.Rand {
	h := hashOf(seed, parts...)
	return rand.New(rand.NewPCG(h, mix(h)))
}

// uuidFor returns a version-4-shaped UUID that is stable for its inputs.
func uuidFor(seed int64, parts ...string) string {
	a := hashOf(seed, parts...)
	b := mix(a ^ 0x5a4db)
	a = a&^(0xf<<12) | 0x4<<12 // version 4
	b = b&^(0x3<<62) | 0x2<<62 // RFC 4122 variant
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x",
		a>>32, (a>>16)&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
}

// hexFor returns n lowercase hex digits (n <= 64) stable for its inputs.
func hexFor(n int, seed int64, parts ...string) string {
	var sb strings.Builder
	h := hashOf(seed, parts...)
	for sb.Len() < n {
		fmt.Fprintf(&sb, "%016x", h)
		h = mix(h)
	}
	return sb.String()[:n]
}

// Run short ids are six characters, like the service's (the legacy address
// documents 6-character ids). The first character tells the two id spaces
// apart: 'h' for generated history, 'r' for runs started in this process;
// the other five are a seeded permutation of the index in base 36, so ids
// look random but decode back to their index without a lookup table.
const (
	idSpace      = 36 * 36 * 36 * 36 * 36 // 60,466,176 ids per prefix
	idMultiplier = 7368787                // odd and not a multiple of 3: coprime to 36^5
)

// idMultiplierInverse is idMultiplier's inverse modulo idSpace.
var idMultiplierInverse = new(big.Int).ModInverse(big.NewInt(idMultiplier), big.NewInt(idSpace)).Int64()

// idOffset places an id space: history ids follow Seed, as everything else
// the sandbox generates; the ids of runs started in it follow IDSeed when
// it is set, so that two sandboxes with the same history never give a run
// the same id.
func (s *Server) idOffset(prefix byte) int64 {
	seed := s.opts.Seed
	if prefix == 'r' && s.opts.IDSeed != 0 {
		seed = s.opts.IDSeed
	}
	return int64(hashOf(seed, "run-id", string(prefix)) % idSpace)
}

func (s *Server) encodeRunID(prefix byte, index int) string {
	// plus idSpace: six digits, a leading 1 for the prefix to replace
	b := strconv.AppendInt(make([]byte, 0, 6), (int64(index)*idMultiplier+s.idOffset(prefix))%idSpace+idSpace, 36)
	b[0] = prefix
	return string(b)
}

// decodeRunID reverses encodeRunID; ok is false for ids of another shape
// (ParseUint takes no sign, but upper-case digits, which ids never have).
func (s *Server) decodeRunID(id string) (prefix byte, index int, ok bool) {
	if len(id) != 6 || (id[0] != 'h' && id[0] != 'r' && id[0] != 'b') || strings.ToLower(id) != id {
		return 0, 0, false
	}
	v, err := strconv.ParseUint(id[1:], 36, 64)
	if err != nil {
		return 0, 0, false
	}
	u := (int64(v) - s.idOffset(id[0]) + idSpace) % idSpace
	return id[0], int(u * idMultiplierInverse % idSpace), true
}

// ProcessIDSeed is an Options.IDSeed of this process and moment: the ids of
// the runs a sandbox started now differ from those of every other sandbox
// (each `--sandbox` command has its own), so the runs of different commands
// never look like the same run. Never 0, which means "follow Seed".
func ProcessIDSeed() int64 {
	return cmp.Or(int64(mix(uint64(time.Now().UnixNano())^mix(uint64(os.Getpid())))), 1)
}

// Identifier formats of service-api.md section 2.1.
var (
	projectIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^proj(-.+_.+|_.+)$`) })
	planIDPattern    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pln(-.+_.+|_.+)$`) })
	uuidPattern      = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	})
)

// hasPrefixID reports whether id is prefix followed by at least one character.
func hasPrefixID(id, prefix string) bool {
	return len(id) > len(prefix) && strings.HasPrefix(id, prefix)
}
