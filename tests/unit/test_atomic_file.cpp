// write_file_atomically under injected I/O errors (SQLite's I/O-error loop):
// for every N, the Nth system call of a save fails; the save must report it,
// leave the old file byte for byte and no temporary file. Short writes must be
// resumed. A full file system (a small tmpfs, where the test may mount one)
// must fail the same way.
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
}

#include "core/atomic_file.hpp"

namespace {

std::string make_dir() {
    const char *tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp ? tmp : "/tmp") + "/kindred_atomic_file_XXXXXX";
    assert_non_null(mkdtemp(&dir[0]));
    return dir;
}

std::vector<std::string> entries(const std::string &dir) {
    std::vector<std::string> names;
    DIR *d = opendir(dir.c_str());
    assert_non_null(d);
    while (dirent *e = readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.push_back(e->d_name);
    closedir(d);
    return names;
}

void remove_dir(const std::string &dir) {
    for (const std::string &name : entries(dir)) unlink((dir + "/" + name).c_str());
    rmdir(dir.c_str());
}

std::string contents(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Fails the call numbered `fail_at` (counting every open, write, fchmod,
// fsync, close and rename from 0), with `error`. Writes are cut to at most
// `chunk` bytes, so that the writer must resume short writes.
class FailingFileSystem : public kindred::FileSystem {
public:
    FailingFileSystem(long fail_at, int error, size_t chunk) : fail_at_(fail_at), error_(error), chunk_(chunk) {}
    long calls() const { return calls_; }
    bool failed() const { return failed_; }

    int open(const char *path, int flags, mode_t mode) override {
        return inject() ? -1 : kindred::FileSystem::open(path, flags, mode);
    }
    ssize_t write(int fd, const void *data, size_t size) override {
        return inject() ? -1 : kindred::FileSystem::write(fd, data, size < chunk_ ? size : chunk_);
    }
    int fchmod(int fd, mode_t mode) override { return inject() ? -1 : kindred::FileSystem::fchmod(fd, mode); }
    int fsync(int fd) override { return inject() ? -1 : kindred::FileSystem::fsync(fd); }
    int close(int fd) override {
        // A failed close still releases the descriptor (POSIX leaves it
        // unspecified; Linux does), so the real close runs either way.
        const bool fail = inject();
        const int done = kindred::FileSystem::close(fd);
        if (fail) errno = error_;
        return fail ? -1 : done;
    }
    int rename(const char *from, const char *to) override {
        return inject() ? -1 : kindred::FileSystem::rename(from, to);
    }

private:
    bool inject() {
        if (calls_++ != fail_at_) return false;
        failed_ = true;
        errno = error_;
        return true;
    }
    long fail_at_, calls_ = 0;
    int error_;
    size_t chunk_;
    bool failed_ = false;
};

// Every failure point of a save over an existing file, with short writes.
void every_failure_point_keeps_the_old_file(void **) {
    const std::string dir = make_dir(), path = dir + "/out.csv";
    const std::string old_text = "cluster\n0\n1\n", new_text(100000, 'x');
    {
        std::ofstream(path, std::ios::binary) << old_text;
    }
    long points = 0;
    for (long n = 0;; ++n) {
        FailingFileSystem fs(n, n % 2 ? ENOSPC : EIO, 4096);
        const std::string message = kindred::write_file_atomically(path, new_text.data(), new_text.size(), fs);
        if (!fs.failed()) {
            // Every call succeeded: the save is complete.
            assert_string_equal(message.c_str(), "");
            points = n;
            break;
        }
        const bool after_rename = contents(path) == new_text;
        if (message.empty()) {
            // Only the directory sync, after the rename, may fail silently.
            assert_true(after_rename);
        } else {
            assert_non_null(std::strstr(message.c_str(), "out.csv"));
            assert_non_null(std::strstr(message.c_str(), std::strerror(n % 2 ? ENOSPC : EIO)));
            assert_true(contents(path) == old_text);
        }
        assert_int_equal(entries(dir).size(), 1);  // no temporary file
        if (after_rename) {  // put the old file back for the next failure point
            std::ofstream(path, std::ios::binary | std::ios::trunc) << old_text;
        }
    }
    // 100000 bytes in 4096-byte writes: 25 writes, plus open, fchmod, fsync,
    // close, rename and the directory's open, fsync and close.
    assert_true(points >= 25 + 8);
    print_message("write failure points exercised: %ld\n", points);
    assert_true(contents(path) == new_text);
    remove_dir(dir);
}

// The same for a file that did not exist: a failure leaves no file at all.
void failure_on_a_new_file_leaves_nothing(void **) {
    const std::string dir = make_dir(), path = dir + "/model.kdm";
    const std::string text(10000, 'y');
    for (long n = 0;; ++n) {
        FailingFileSystem fs(n, ENOSPC, 1000);
        const std::string message = kindred::write_file_atomically(path, text.data(), text.size(), fs);
        if (!fs.failed()) break;
        if (!message.empty()) assert_int_equal(entries(dir).size(), 0);
        unlink(path.c_str());
    }
    assert_true(contents(path) == text);
    remove_dir(dir);
}

// A write that makes no progress is an error, not an endless loop.
class StalledFileSystem : public kindred::FileSystem {
public:
    ssize_t write(int, const void *, size_t) override { return 0; }
};

void a_stalled_write_fails(void **) {
    const std::string dir = make_dir(), path = dir + "/f";
    StalledFileSystem fs;
    const std::string message = kindred::write_file_atomically(path, "abc", 3, fs);
    assert_non_null(std::strstr(message.c_str(), "writing"));
    assert_int_equal(entries(dir).size(), 0);
    remove_dir(dir);
}

// Writing through a symbolic link replaces the file it names and keeps the link.
void a_symbolic_link_is_followed(void **) {
    const std::string dir = make_dir(), file = dir + "/real", link = dir + "/link";
    std::ofstream(file, std::ios::binary) << "old";
    assert_int_equal(symlink("real", link.c_str()), 0);
    assert_string_equal(kindred::write_file_atomically(link, "new", 3).c_str(), "");
    struct stat st;
    assert_int_equal(lstat(link.c_str(), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_true(contents(file) == "new");
    remove_dir(dir);
}

// A device or a pipe is written in place, never replaced by a file (as root,
// a rename over /dev/null would succeed and break the system).
void a_device_is_written_in_place(void **) {
    assert_string_equal(kindred::write_file_atomically("/dev/null", "abc", 3).c_str(), "");
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    const std::string dir = make_dir(), fifo = dir + "/pipe";
    assert_int_equal(mkfifo(fifo.c_str(), 0600), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
    assert_true(reader >= 0);
    assert_string_equal(kindred::write_file_atomically(fifo, "xyz", 3).c_str(), "");
    char got[4] = {0};
    assert_int_equal(::read(reader, got, 3), 3);
    assert_string_equal(got, "xyz");
    ::close(reader);
    assert_int_equal(lstat(fifo.c_str(), &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(entries(dir).size(), 1);
    remove_dir(dir);
}

// A real full file system: a 64 KiB tmpfs mounted in a private mount
// namespace (needs root or user namespaces; skipped with a message otherwise).
void full_file_system(void **) {
    const std::string dir = make_dir();
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
            mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=64k") != 0)
            _exit(77);
        const std::string path = dir + "/labels.csv", old_text = "cluster\n1\n", big(1 << 20, 'z');
        if (!kindred::write_file_atomically(path, old_text.data(), old_text.size()).empty()) _exit(2);
        const std::string message = kindred::write_file_atomically(path, big.data(), big.size());
        const bool refused = std::strstr(message.c_str(), std::strerror(ENOSPC)) != nullptr;
        const bool kept = contents(path) == old_text && entries(dir).size() == 1;
        umount(dir.c_str());
        _exit(refused && kept ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) {
        print_message("SKIPPED full_file_system: cannot mount a tmpfs here (needs root or user namespaces)\n");
    } else {
        assert_int_equal(WEXITSTATUS(status), 0);
    }
    remove_dir(dir);
}

}  // namespace

int main() {
    const CMUnitTest tests[] = {
        cmocka_unit_test(every_failure_point_keeps_the_old_file),
        cmocka_unit_test(failure_on_a_new_file_leaves_nothing),
        cmocka_unit_test(a_stalled_write_fails),
        cmocka_unit_test(a_symbolic_link_is_followed),
        cmocka_unit_test(a_device_is_written_in_place),
        cmocka_unit_test(full_file_system),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
