package main

import "soko/internal/outfile"

// checkOut refuses, as a usage error and before any work, an output path
// of cmd's flag that exists and is not a regular file, or whose folder does
// not exist (package outfile says why).
func checkOut(cmd, flag, path string) error {
	if path == "" {
		return nil
	}
	if err := outfile.Check(path); err != nil {
		return usagef("%s: %s %v", cmd, flag, err)
	}
	return nil
}
