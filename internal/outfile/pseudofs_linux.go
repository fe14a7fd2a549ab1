//go:build linux

package outfile

import "golang.org/x/sys/unix"

// pseudoFileSystems are the file systems of the kernel whose files are
// views of its state or controls, not storage: a "write" there changes
// the process name, a tunable or a cgroup, and keeps nothing.
var pseudoFileSystems = map[int64]string{
	unix.PROC_SUPER_MAGIC:    "proc",
	unix.SYSFS_MAGIC:         "sysfs",
	unix.DEBUGFS_MAGIC:       "debugfs",
	unix.TRACEFS_MAGIC:       "tracefs",
	unix.CGROUP_SUPER_MAGIC:  "cgroup",
	unix.CGROUP2_SUPER_MAGIC: "cgroup2",
	unix.SECURITYFS_MAGIC:    "securityfs",
	unix.SELINUX_MAGIC:       "selinuxfs",
	unix.SMACK_MAGIC:         "smackfs",
	unix.BPF_FS_MAGIC:        "bpf",
	unix.PSTOREFS_MAGIC:      "pstore",
	unix.EFIVARFS_MAGIC:      "efivarfs",
	unix.BINFMTFS_MAGIC:      "binfmt_misc",
	unix.NSFS_MAGIC:          "nsfs",
}

// pseudoFS names the pseudo file system that path (a symbolic link
// followed) is on, or is "" when it is on another or cannot be told.
func pseudoFS(path string) string {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return ""
	}
	return pseudoFileSystems[int64(st.Type)]
}
