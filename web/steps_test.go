package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"soko/level"
)

// A repeat count makes a million steps eight bytes: a request's moves
// are replayed up to MaxRequestSteps in all, and what is past it is said,
// not replayed.
func TestRequestSteps(t *testing.T) {
	_, ts := testServer(t, Config{})
	bomb := fmt.Sprintf("%dl", level.MaxSolutionSteps)
	over := MaxRequestSteps/level.MaxSolutionSteps + 1

	var sok strings.Builder
	sok.WriteString("#####\n#@$.#\n#####\n\n")
	for i := range over {
		fmt.Fprintf(&sok, "Snapshot %d\n%s\n\n", i, bomb)
	}
	body, _ := json.Marshal(map[string]string{"xsb": sok.String()})
	resp, b := post(t, ts.URL+"/api/parse", string(body))
	var parsed struct {
		SnapshotErrors []string `json:"snapshot_errors"`
	}
	if err := json.Unmarshal(b, &parsed); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("parse: %d %s", resp.StatusCode, b)
	}
	if n := len(parsed.SnapshotErrors); n != over || !strings.Contains(parsed.SnapshotErrors[n-1], "not replayed: the request's moves come to more than") {
		t.Errorf("parse: %d snapshot errors, want %d, the last saying the steps ran out:\n%s", n, over, strings.Join(parsed.SnapshotErrors, "\n"))
	}

	var sols, snaps []string
	for i := 1; i <= over; i++ {
		sols = append(sols, fmt.Sprintf(`{"n":%d,"solution":%q}`, i, bomb))
		snaps = append(snaps, fmt.Sprintf(`{"n":%d,"snapshot":%q}`, i, bomb))
	}
	resp, b = post(t, ts.URL+"/api/sok/collection", `{"collection":"microban","solutions":[`+strings.Join(sols, ",")+`],"snapshots":[`+strings.Join(snaps, ",")+`]}`)
	var export struct {
		Skipped []string `json:"skipped"`
	}
	if err := json.Unmarshal(b, &export); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("collection: %d %s", resp.StatusCode, b)
	}
	ranOut := 0
	for _, s := range export.Skipped {
		if strings.Contains(s, "not replayed") {
			ranOut++
		}
	}
	if len(export.Skipped) != 2*over || ranOut != over+1 {
		t.Errorf("collection: %d skipped, %d of them not replayed; want %d and %d:\n%s", len(export.Skipped), ranOut, 2*over, over+1, strings.Join(export.Skipped, "\n"))
	}
}

// The smaller answers of the API: a .sok text too long is refused before
// it is read; a level with snapshots the .sok reader cannot take says why;
// a collection level without n, an unclean API path and a snapshot that
// solves its level are clear JSON errors; a job that gets its slots at
// once is running in its first answer.
func TestAPIAnswers(t *testing.T) {
	_, ts := testServer(t, Config{})
	long, _ := json.Marshal(map[string]string{"xsb": strings.Repeat("#####\n#@$.#\n#####\n\nSnapshot\nr\n\n", MaxLevelText/20)})
	if resp, b := post(t, ts.URL+"/api/parse", string(long)); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a long .sok: %d %s", resp.StatusCode, b)
	}
	resp, b := post(t, ts.URL+"/api/parse", `{"xsb":"Snapshot\nr\n\n#####\n#@$.#\n#####\n\nSnapshot\nr\n"}`)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"snapshot_errors":["snapshots not read: `) {
		t.Errorf("a snapshot above the first board: %d %s", resp.StatusCode, b)
	}
	if resp, b := post(t, ts.URL+"/api/sok", `{"collection":"microban"}`); resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "no n") {
		t.Errorf("no n: %d %s", resp.StatusCode, b)
	}
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"//api/limits", nil)
	req.Header.Set("Content-Type", "application/json")
	if resp, b := do(t, req); resp.StatusCode != http.StatusNotFound || !strings.Contains(string(b), `"error":"no such API endpoint: GET //api/limits (the path is not clean: /api/limits)"`) {
		t.Errorf("an unclean path: %d %s", resp.StatusCode, b)
	}
	if resp, b := post(t, ts.URL+"/api/sok", `{"collection":"microban","n":1,"snapshot":"dlUrrrdLullddrUluRuulDrddrruLdlUU"}`); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(b), "the snapshot solves microban:1") {
		t.Errorf("a solving snapshot: %d %s", resp.StatusCode, b)
	}
	if resp, b := post(t, ts.URL+"/api/solve", `{"collection":"microban","n":1,"solver":"astar"}`); resp.StatusCode != http.StatusAccepted || !strings.Contains(string(b), `"state":"running"`) {
		t.Errorf("a job on an idle server: %d %s", resp.StatusCode, b)
	}
}
