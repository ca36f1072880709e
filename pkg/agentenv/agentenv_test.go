package agentenv

import "testing"

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		env     map[string]string
		want    bool
		wantErr bool
	}{
		{env: nil},
		{env: map[string]string{"CLAUDECODE": "1"}, want: true},
		{env: map[string]string{"CURSOR_AGENT": "1"}, want: true},
		{env: map[string]string{"GEMINI_CLI": "1"}, want: true},
		{env: map[string]string{"OPENCODE": "1"}, want: true},
		{env: map[string]string{"AGENT": "amp"}, want: true},
		{env: map[string]string{"AGENT": "0"}},
		{env: map[string]string{"AGENT": "false"}},
		{env: map[string]string{"AGENT": ""}},
		{env: map[string]string{"SOME_AGENT": "1"}},
		{env: map[string]string{"CLAUDECODE": "1", Override: "0"}},
		{env: map[string]string{Override: "1"}, want: true},
		{env: map[string]string{Override: "yes"}, wantErr: true},
		{env: map[string]string{Override: "true", "CLAUDECODE": "1"}, wantErr: true},
	} {
		got, err := Detect(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok })
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("%v: got %v, %v; want %v, error %v", c.env, got, err, c.want, c.wantErr)
		}
	}
}
