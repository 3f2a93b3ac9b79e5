package emulator_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// recorder keeps each answer's body as it came over the wire, so a test can
// decode it again by itself after the client has.
type recorder struct {
	mu     sync.Mutex
	bodies map[*http.Response][]byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	r.bodies[resp] = body
	r.mu.Unlock()
	return resp, nil
}

func (r *recorder) body(t *testing.T, resp *gitlab.Response) []byte {
	t.Helper()
	if resp == nil || resp.Response == nil {
		t.Fatalf("no response")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	body, ok := r.bodies[resp.Response]
	if !ok {
		t.Fatalf("no recorded body for %s %s", resp.Request.Method, resp.Request.URL)
	}
	return body
}

// api is the official client with one seed user's token, and the bodies it received.
type api struct {
	*gitlab.Client
	rec *recorder
}

func clientFor(t *testing.T, baseURL, user string) *api {
	t.Helper()
	token := tokens[user]
	if user != "" && token == "" {
		t.Fatalf("no token for %s", user)
	}
	return clientWithToken(t, baseURL, token)
}

// clientWithToken is the official client with any token ("" for none).
func clientWithToken(t *testing.T, baseURL, token string) *api {
	t.Helper()
	rec := &recorder{bodies: map[*http.Response][]byte{}}
	client, err := gitlab.NewClient(token,
		gitlab.WithBaseURL(baseURL+"/api/v4"),
		gitlab.WithHTTPClient(&http.Client{Transport: rec}),
		gitlab.WithoutRetries(),
	)
	if err != nil {
		t.Fatal(err)
	}
	return &api{Client: client, rec: rec}
}

// hosted is the client on the default seed's (hosted) emulator; anonymous for user "".
func hosted(t *testing.T, user string) *api { return clientFor(t, hostedURL, user) }

// selfManaged is the client on the self-managed emulator.
func selfManaged(t *testing.T, user string) *api { return clientFor(t, selfManagedURL, user) }

// decodes fails the test unless the call succeeded and its answer decodes
// strictly into the client's own type: the client's decode succeeded (a
// type mismatch is its error), the body holds one JSON value and nothing
// after it, every field of it decodes into the struct's field of that name
// (each mismatch named), and the client's value equals a fresh decode.
func (a *api) decodes(t *testing.T, resp *gitlab.Response, err error, got any) {
	t.Helper()
	if err != nil {
		body := ""
		if resp != nil && resp.Response != nil {
			body = string(a.rec.body(t, resp))
		}
		fields := mismatches(body, reflect.TypeOf(got))
		if len(body) > 1000 {
			body = body[:1000] + "..."
		}
		t.Fatalf("call failed: %v\nmismatched fields: %v\nbody: %s", err, fields, body)
	}
	raw := a.rec.body(t, resp)
	fresh := reflect.New(reflect.TypeOf(got))
	decoder := json.NewDecoder(bytes.NewReader(raw))
	if err := decoder.Decode(fresh.Interface()); err != nil {
		t.Fatalf("the answer does not decode into %T: %v (fields: %v)", got, err, mismatches(string(raw), reflect.TypeOf(got)))
	}
	if _, err := decoder.Token(); !errors.Is(err, io.EOF) {
		t.Fatalf("the answer has data after its JSON value: %s", raw)
	}
	if fields := mismatches(string(raw), reflect.TypeOf(got)); len(fields) > 0 {
		t.Fatalf("fields whose JSON type differs from %T: %v", got, fields)
	}
	if !reflect.DeepEqual(fresh.Elem().Interface(), got) {
		t.Fatalf("the client's value differs from a decode of the body")
	}
}

// mismatches decodes each field of each object in body by itself into typ
// (a struct, a pointer to one, or a slice of them) and names the fields that fail.
func mismatches(body string, typ reflect.Type) []string {
	var objects []map[string]json.RawMessage
	element := typ
	for element.Kind() == reflect.Pointer || element.Kind() == reflect.Slice {
		element = element.Elem()
	}
	if err := json.Unmarshal([]byte(body), &objects); err != nil {
		var one map[string]json.RawMessage
		if json.Unmarshal([]byte(body), &one) != nil {
			return nil
		}
		objects = []map[string]json.RawMessage{one}
	}
	seen := map[string]bool{}
	for _, object := range objects {
		for key, value := range object {
			// The object's id goes along: some client types' own decoders read it first (Issue's panics without it).
			fields := map[string]json.RawMessage{key: value}
			if id, ok := object["id"]; ok {
				fields["id"] = id
			}
			single, _ := json.Marshal(fields)
			if err := json.Unmarshal(single, reflect.New(element).Interface()); err != nil && !seen[key] {
				seen[key] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name+"="+string(firstValue(objects, name)))
	}
	sort.Strings(names)
	return names
}

func firstValue(objects []map[string]json.RawMessage, key string) json.RawMessage {
	for _, object := range objects {
		if value, ok := object[key]; ok {
			return value
		}
	}
	return nil
}

// succeeds fails the test unless a call without an answer body (204, 202) succeeded with that status.
func succeeds(t *testing.T, resp *gitlab.Response, err error, status int) {
	t.Helper()
	if err != nil {
		t.Fatalf("call failed: %v", err)
	}
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d", resp.StatusCode, status)
	}
}

// refused fails the test unless the call was refused with status, as the
// client reports it (ErrNotFound for a 404, an ErrorResponse otherwise), and
// the server's body is its JSON error (`{"message": ...}` or `{"error": ...}`)
// containing want.
func (a *api) refused(t *testing.T, resp *gitlab.Response, err error, status int, want string) {
	t.Helper()
	var errorResponse *gitlab.ErrorResponse
	if status == http.StatusNotFound && !errors.Is(err, gitlab.ErrNotFound) || status != http.StatusNotFound && !errors.As(err, &errorResponse) {
		t.Fatalf("want a %d refusal, got err=%v", status, err)
	}
	if resp == nil || resp.StatusCode != status {
		t.Fatalf("want status %d, got %v", status, resp)
	}
	raw := a.rec.body(t, resp)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("the refusal is not JSON: %s", raw)
	}
	if _, hasMessage := body["message"]; !hasMessage {
		if _, hasError := body["error"]; !hasError {
			t.Fatalf("the refusal has neither message nor error: %s", raw)
		}
	}
	if !strings.Contains(string(raw), want) {
		t.Fatalf("the refusal %s does not say %q", raw, want)
	}
}

// wrongDecode fails the test unless the client's own decode failed on field
// (a client whose type differs from what real servers answer).
func wrongDecode(t *testing.T, err error, field string) {
	t.Helper()
	var typeError *json.UnmarshalTypeError
	if !errors.As(err, &typeError) || !strings.Contains(typeError.Field, field) {
		t.Fatalf("want the client's decode to fail on %s, got %v", field, err)
	}
}

func ptr[T any](value T) *T { return &value }

// userID is the id of a seed user, looked up by name as a client would.
func userID(t *testing.T, username string) int64 {
	t.Helper()
	users, _, err := hosted(t, "root").Users.ListUsers(&gitlab.ListUsersOptions{Username: ptr(username)})
	if err != nil || len(users) != 1 {
		t.Fatalf("user %s: %v %v", username, users, err)
	}
	return users[0].ID
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// removesForGoodAfter removes an object for good when the test ends, if the
// test has not, so that a test that fails halfway leaves nothing for the
// others: find tells where it is now and whether it is marked for deletion
// (ok false: gone); remove marks it (fullPath nil) or removes it for good.
func removesForGoodAfter(t *testing.T, find func() (fullPath string, marked, ok bool), remove func(fullPath *string) error) {
	t.Cleanup(func() {
		fullPath, marked, ok := find()
		if !ok {
			return
		}
		if !marked {
			if remove(nil) != nil {
				return
			}
			if fullPath, _, ok = find(); !ok {
				return
			}
		}
		_ = remove(&fullPath)
	})
}

func removesProjectAfter(t *testing.T, c *api, id int64) {
	removesForGoodAfter(t, func() (string, bool, bool) {
		project, _, err := c.Projects.GetProject(id, nil)
		if err != nil {
			return "", false, false
		}
		return project.PathWithNamespace, project.MarkedForDeletionOn != nil, true
	}, func(fullPath *string) error {
		options := &gitlab.DeleteProjectOptions{}
		if fullPath != nil {
			options = &gitlab.DeleteProjectOptions{PermanentlyRemove: ptr(true), FullPath: fullPath}
		}
		_, err := c.Projects.DeleteProject(id, options)
		return err
	})
}

func removesGroupAfter(t *testing.T, c *api, id int64) {
	removesForGoodAfter(t, func() (string, bool, bool) {
		group, _, err := c.Groups.GetGroup(id, nil)
		if err != nil {
			return "", false, false
		}
		return group.FullPath, group.MarkedForDeletionOn != nil, true
	}, func(fullPath *string) error {
		options := &gitlab.DeleteGroupOptions{}
		if fullPath != nil {
			options = &gitlab.DeleteGroupOptions{PermanentlyRemove: ptr(true), FullPath: fullPath}
		}
		_, err := c.Groups.DeleteGroup(id, options)
		return err
	})
}
