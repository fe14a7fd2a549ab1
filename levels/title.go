package levels

import (
	"path/filepath"
	"strconv"
	"strings"

	"soko/level"
)

// collectionTitles are the names the embedded collections go by in a
// level's title: "Microban 12", as players and programs call its levels.
var collectionTitles = map[string]string{
	"boxoban-medium-valid-000":    "Boxoban medium valid 000",
	"boxoban-unfiltered-test-000": "Boxoban unfiltered test 000",
	"cbc60":                       "CBC",
	"microban":                    "Microban",
	"microban3":                   "Microban III",
	"schokoban-microban100":       "Schokoban Microban",
	"xsokoban90":                  "XSokoban",
}

// CollectionTitle is the name the levels of source (an embedded
// collection's name or a file's path, as level.Level.Source) go by in a
// title: the collection's own ("Microban"), a file's name without its
// extension ("mine" for path/to/mine.xsb), "Level" for standard input.
func CollectionTitle(source string) string {
	if t, ok := collectionTitles[source]; ok {
		return t
	}
	if source == StdinSource || source == "" {
		return "Level"
	}
	base := filepath.Base(source)
	if t := strings.TrimSuffix(base, filepath.Ext(base)); t != "" {
		return t
	}
	return base
}

// Title is the title a level is written with where every level needs
// one (the Title: line of a .sok file soko writes): its own title, or,
// for an untitled level, its collection's name and its number there
// ("Microban 1"; the "; 12" number of its comment when it has one, else
// its position).
func Title(l *level.Level) string {
	if t := strings.TrimSpace(l.Title); t != "" {
		return t
	}
	n := l.Number
	if n == "" {
		n = strconv.Itoa(l.Index)
	}
	return CollectionTitle(l.Source) + " " + n
}
