// Writing a whole file so that whoever reads it afterwards (another process,
// the same program after a crash, kill or full disk) finds either the old
// file or the complete new one, never a truncated mix: the bytes go to a
// temporary file in the target's directory, which is synced to disk and then
// renamed over the target (rename(2) replaces a name atomically within one
// file system).
//
// Used by kindred_model_save and, compiled into the program as well, by every
// output file of the `kindred` command; it reports failures as text so that
// each caller raises its own kind of error.
#ifndef KINDRED_CORE_ATOMIC_FILE_HPP
#define KINDRED_CORE_ATOMIC_FILE_HPP

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace kindred {

// The system calls the writer makes, behind one interface so that a test can
// fail any one of them (SQLite's I/O-error injection) without any switch in
// the library itself.
class FileSystem {
public:
    virtual ~FileSystem() = default;
    virtual int open(const char *path, int flags, mode_t mode);
    virtual ssize_t write(int fd, const void *data, size_t size);
    virtual int fchmod(int fd, mode_t mode);
    virtual int fsync(int fd);
    virtual int close(int fd);
    virtual int rename(const char *from, const char *to);
    virtual int unlink(const char *path);
};

// Writes `size` bytes to `path` atomically (see above). Returns "" on success;
// otherwise a message naming the path and the step that failed, with the
// target left as it was and the temporary file removed. An existing target
// keeps its permission bits; a symbolic link is followed, so the file it
// names is replaced and the link stays. A target that is a device, pipe or
// socket (/dev/null, /dev/stdout) is written in place, not replaced.
std::string write_file_atomically(const std::string &path, const void *data, size_t size, FileSystem &fs);
std::string write_file_atomically(const std::string &path, const void *data, size_t size);

}  // namespace kindred

#endif
