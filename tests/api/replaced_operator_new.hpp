// The global operator new and delete of a test executable, routed to two
// functions the including file defines: test_allocate (returns nullptr to
// refuse) and test_release. The shared library's allocations resolve to these
// too, which is how the allocation tests see inside it without any hook in
// the library. Include in exactly one file of an executable.
#ifndef KINDRED_TESTS_REPLACED_OPERATOR_NEW_HPP
#define KINDRED_TESTS_REPLACED_OPERATOR_NEW_HPP

#include <cstddef>
#include <new>

void *test_allocate(std::size_t size);
void test_release(void *p);

void *operator new(std::size_t size) {
    if (void *p = test_allocate(size)) return p;
    throw std::bad_alloc();
}
void *operator new[](std::size_t size) { return operator new(size); }
void *operator new(std::size_t size, const std::nothrow_t &) noexcept { return test_allocate(size); }
void *operator new[](std::size_t size, const std::nothrow_t &) noexcept { return test_allocate(size); }
void operator delete(void *p) noexcept { test_release(p); }
void operator delete[](void *p) noexcept { test_release(p); }
void operator delete(void *p, std::size_t) noexcept { test_release(p); }
void operator delete[](void *p, std::size_t) noexcept { test_release(p); }

#endif
