package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/yamlcheck"
	"go.yaml.in/yaml/v3"
)

// lint finds what the file holds that no setting reads: a misspelt key
// (`baseurl:`) or a setting outside any profile (a top-level `base_url:`).
// The decoder ignores both, so without a warning the setting silently does
// not apply and the next command fails somewhere else ("no base URL").
// Each warning names the line and, where one is near, the key meant.
func lint(data []byte) []string {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	var warnings []string
	top := doc.Content[0].Content
	for i := 0; i+1 < len(top); i += 2 {
		key, value := top[i], top[i+1]
		name := strings.ToLower(key.Value)
		switch {
		case name == KeyCurrentProfile:
		case name == "profiles":
			warnings = append(warnings, lintProfiles(value)...)
		case isProfileSetting(name):
			warnings = append(warnings, fmt.Sprintf("line %d: %s is outside any profile, so no command reads it: indent it under profiles.<name>, or run `testctl config set %s …`",
				key.Line, key.Value, name))
		default:
			warnings = append(warnings, fmt.Sprintf("line %d: unknown key %s is ignored%s", key.Line, key.Value,
				meant(name, []string{KeyCurrentProfile, "profiles"})))
		}
	}
	return warnings
}

func lintProfiles(profiles *yaml.Node) []string {
	if profiles.Kind != yaml.MappingNode {
		return nil // a type error the decoder reports
	}
	var warnings []string
	for i := 0; i+1 < len(profiles.Content); i += 2 {
		name, settings := profiles.Content[i], profiles.Content[i+1]
		if settings.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(settings.Content); j += 2 {
			key := settings.Content[j]
			if k := strings.ToLower(key.Value); !isProfileSetting(k) {
				warnings = append(warnings, fmt.Sprintf("line %d: unknown key %s in profile %q is ignored%s",
					key.Line, key.Value, name.Value, meant(k, profileSettingKeys())))
			}
		}
	}
	return warnings
}

// profileSettingKeys are the keys a profile may hold: every setting but
// the choice of profile itself.
func profileSettingKeys() []string {
	var keys []string
	for _, s := range Settings() {
		if s.Key != KeyCurrentProfile {
			keys = append(keys, s.Key)
		}
	}
	return keys
}

func isProfileSetting(key string) bool { return slices.Contains(profileSettingKeys(), key) }

// meant is ": did you mean K?" for the known key nearest to key, when one
// is near enough to be a slip (baseurl, base-url, bse_url), else the list.
func meant(key string, known []string) string {
	if best := yamlcheck.Nearest(key, known, 2); best != "" {
		return fmt.Sprintf(": did you mean %s?", best)
	}
	return " (known: " + strings.Join(known, ", ") + ")"
}
