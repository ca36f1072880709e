package mcp

// SuggestedArgs are the tools the next steps of the commands name, each
// with the arguments it may be given, for the test that checks them
// against the tools' input schemas.
func SuggestedArgs() map[string][]string {
	out := map[string][]string{}
	for _, t := range commandTools {
		args := out[t.name]
		if t.ids != "" {
			args = append(args, t.ids)
		}
		for _, a := range t.flags {
			if a.name != "" {
				args = append(args, a.name)
			}
		}
		out[t.name] = args
	}
	return out
}
