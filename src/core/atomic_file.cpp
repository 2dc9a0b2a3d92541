#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>

namespace kindred {

int FileSystem::open(const char *path, int flags, mode_t mode) { return ::open(path, flags, mode); }
ssize_t FileSystem::write(int fd, const void *data, size_t size) { return ::write(fd, data, size); }
int FileSystem::fchmod(int fd, mode_t mode) { return ::fchmod(fd, mode); }
int FileSystem::fsync(int fd) { return ::fsync(fd); }
int FileSystem::close(int fd) { return ::close(fd); }
int FileSystem::rename(const char *from, const char *to) { return ::rename(from, to); }
int FileSystem::unlink(const char *path) { return ::unlink(path); }

namespace {

std::string failure(const std::string &what, const std::string &path, int error) {
    return "cannot write '" + path + "': " + what + " failed (" + std::strerror(error) + "); the file is unchanged";
}

// The file a write to `path` should replace: a symbolic link's target, so
// that saving through a link updates the file and keeps the link.
std::string resolved_target(const std::string &path) {
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char *real = ::realpath(path.c_str(), nullptr);
    if (!real) return path;  // a dangling link: rename replaces the link itself
    std::string target(real);
    std::free(real);
    return target;
}

std::string directory_of(const std::string &path) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// A name no other writer picks: process, thread and time, and a retry count
// for the rare collision (the caller opens it with O_EXCL).
std::string temporary_name(const std::string &target, int attempt) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    const size_t thread = std::hash<std::thread::id>()(std::this_thread::get_id());
    char suffix[96];
    std::snprintf(suffix, sizeof suffix, ".tmp-%ld-%zx-%llx-%d", static_cast<long>(::getpid()), thread,
                  static_cast<unsigned long long>(now), attempt);
    return target + suffix;
}

// Writes everything, resuming after short writes and signals.
int write_all(FileSystem &fs, int fd, const unsigned char *data, size_t size) {
    while (size > 0) {
        const ssize_t done = fs.write(fd, data, size);
        if (done < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (done == 0) {
            errno = EIO;  // no progress and no error: give up rather than spin
            return -1;
        }
        data += done;
        size -= static_cast<size_t>(done);
    }
    return 0;
}

std::string write_in_place(FileSystem &fs, const std::string &target, const void *data, size_t size,
                           const std::string &path) {
    const int fd = fs.open(target.c_str(), O_WRONLY | O_CLOEXEC, 0);
    if (fd < 0) return failure("opening", path, errno);
    if (write_all(fs, fd, static_cast<const unsigned char *>(data), size) != 0) {
        const int error = errno;
        fs.close(fd);
        return "cannot write '" + path + "': writing failed (" + std::strerror(error) + ")";
    }
    if (fs.close(fd) != 0) return "cannot write '" + path + "': closing failed (" + std::strerror(errno) + ")";
    return "";
}

}  // namespace

std::string write_file_atomically(const std::string &path, const void *data, size_t size, FileSystem &fs) {
    const std::string target = resolved_target(path);
    // An existing file keeps its permissions (a private model stays private);
    // a new one gets what the process's umask allows, as with fopen.
    struct stat st;
    const bool found = ::stat(target.c_str(), &st) == 0;
    // A device, pipe or socket (/dev/null, /dev/stdout, a FIFO) cannot be
    // replaced by a file, and must not be: it is written in place.
    if (found && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return write_in_place(fs, target, data, size, path);
    const bool existed = found && S_ISREG(st.st_mode);
    const mode_t mode = existed ? (st.st_mode & 07777) : 0666;

    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = temporary_name(target, attempt);
        fd = fs.open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST) return failure("creating a temporary file beside it", path, errno);
    }
    if (fd < 0) return failure("creating a temporary file beside it", path, EEXIST);

    // From here on a failure removes the temporary file; the target is untouched.
    auto abandon = [&](const char *what) {
        const int error = errno;
        if (fd >= 0) fs.close(fd);
        fs.unlink(temp.c_str());
        return failure(what, path, error);
    };
    if (existed && fs.fchmod(fd, mode) != 0) return abandon("keeping the permissions");
    if (write_all(fs, fd, static_cast<const unsigned char *>(data), size) != 0) return abandon("writing");
    // Synced before the rename: otherwise a crash soon after could leave the
    // new name pointing at blocks never written (delayed allocation).
    if (fs.fsync(fd) != 0) return abandon("syncing");
    const int closed = fs.close(fd);
    fd = -1;
    if (closed != 0) return abandon("closing");
    if (fs.rename(temp.c_str(), target.c_str()) != 0) return abandon("renaming the temporary file over it");

    // The rename is made durable by syncing the directory. The file is already
    // either the old or the new one whatever happens here, so a directory that
    // cannot be synced (some file systems refuse) is not an error.
    const int dir = fs.open(directory_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
    if (dir >= 0) {
        fs.fsync(dir);
        fs.close(dir);
    }
    return "";
}

std::string write_file_atomically(const std::string &path, const void *data, size_t size) {
    FileSystem system;
    return write_file_atomically(path, data, size, system);
}

}  // namespace kindred
