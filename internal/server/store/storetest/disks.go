//go:build linux

package storetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// Disks for the tests of what the server does when its disk misbehaves:
// a small one that fills up (a tmpfs) and a slow one (every fsync held
// for a while, through FUSE). Both need root (CI runs as root). A test
// that cannot mount one is skipped with the reason, unless DisksEnv is
// "1" (as in CI), when it fails instead: a test of a full disk that never
// ran must not pass for one that did.

// DisksEnv is the variable that makes a disk that cannot be mounted fail
// the test instead of skipping it.
const DisksEnv = "MORRIS_DISK_TESTS"

func cannot(tb testing.TB, what string, err error) {
	tb.Helper()
	if os.Getenv(DisksEnv) == "1" {
		tb.Fatalf("%s: %v (%s=1: not skipped)", what, err, DisksEnv)
	}
	tb.Skipf("%s: %v: skipping (it needs root; %s=1 makes this a failure)", what, err, DisksEnv)
}

// SmallDisk mounts a file system of size bytes (a tmpfs) on a new
// temporary folder and returns the folder; it is unmounted when the test
// ends, after the cleanups registered later (the processes using it).
func SmallDisk(tb testing.TB, size int64) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		cannot(tb, "mounting a tmpfs of "+fmt.Sprint(size)+" bytes", err)
	}
	tb.Cleanup(func() { unmount(tb, dir) })
	return dir
}

func unmount(tb testing.TB, dir string) {
	for range 50 {
		if err := syscall.Unmount(dir, 0); err == nil || errors.Is(err, syscall.EINVAL) {
			return
		}
		time.Sleep(20 * time.Millisecond) // a process that was killed may hold it a moment
	}
	if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
		tb.Errorf("unmounting %s: %v", dir, err)
	}
}

// Fill fills the file system of dir with files of chunk bytes, the last
// one as far as it goes, until a write fails for want of room, and returns
// their paths: removing one gives the room back.
func Fill(tb testing.TB, dir string, chunk int) []string {
	tb.Helper()
	buf := make([]byte, 64<<10)
	var files []string
	for i := 0; ; i++ {
		name := filepath.Join(dir, fmt.Sprintf("filler-%03d", i))
		f, err := os.Create(name)
		if errors.Is(err, syscall.ENOSPC) {
			return files
		}
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, name)
		for n := 0; n < chunk; n += len(buf) {
			if _, err = f.Write(buf[:min(len(buf), chunk-n)]); err != nil {
				break
			}
		}
		f.Close()
		if errors.Is(err, syscall.ENOSPC) {
			return files
		}
		if err != nil {
			tb.Fatal(err)
		}
		if i > 1<<16 {
			tb.Fatalf("filling %s: no end after %d files", dir, i)
		}
	}
}

// SlowDisk mounts on a new temporary folder a file system that passes
// everything through to another temporary folder, but holds every fsync
// (and fdatasync) for delay before it does it, as a slow disk would; it
// returns the folder and the count of the fsyncs so far. The file system
// is served by this process (FUSE), so a process on it must be another
// one or not wait on it while holding what the server needs; the tests
// run the server in a child process.
func SlowDisk(tb testing.TB, delay time.Duration) (string, *atomic.Int64) {
	tb.Helper()
	under := filepath.Join(tb.TempDir(), "under")
	dir := filepath.Join(tb.TempDir(), "slow")
	for _, d := range []string{under, dir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	var st syscall.Stat_t
	if err := syscall.Stat(under, &st); err != nil {
		tb.Fatal(err)
	}
	syncs := new(atomic.Int64)
	root := &fs.LoopbackRoot{Path: under, Dev: uint64(st.Dev)}
	root.NewNode = func(r *fs.LoopbackRoot, _ *fs.Inode, _ string, _ *syscall.Stat_t) fs.InodeEmbedder {
		return &slowNode{LoopbackNode: &fs.LoopbackNode{RootData: r}, delay: delay, syncs: syncs}
	}
	root.RootNode = root.NewNode(root, nil, "", &st)
	srv, err := fs.Mount(dir, root.RootNode, &fs.Options{MountOptions: fuse.MountOptions{
		DirectMountStrict: true, // root mounts it itself: no fusermount needed
		FsName:            under,
		Name:              "morris-slowdisk",
	}})
	if err != nil {
		cannot(tb, "mounting a FUSE file system", err)
	}
	tb.Cleanup(func() {
		for range 50 {
			if srv.Unmount() == nil {
				srv.Wait()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		tb.Errorf("unmounting %s", dir)
	})
	return dir, syncs
}

// slowNode is a loopback node whose fsyncs take delay more.
type slowNode struct {
	*fs.LoopbackNode
	delay time.Duration
	syncs *atomic.Int64
}

var _ = (fs.NodeFsyncer)((*slowNode)(nil))

func (n *slowNode) Fsync(ctx context.Context, f fs.FileHandle, flags uint32) syscall.Errno {
	n.syncs.Add(1)
	time.Sleep(n.delay)
	if s, ok := f.(fs.FileFsyncer); ok {
		return s.Fsync(ctx, flags)
	}
	return 0
}
