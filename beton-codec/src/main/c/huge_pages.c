/*
 * Off-heap memory for large, long-lived buffers (the loader's batch slots), in anonymous mappings aligned to 2 MiB
 * and advised for transparent huge pages (madvise MADV_HUGEPAGE). A fresh 4 KiB page costs a page fault on its
 * first write; a batch slot of 40-80 MB is ten to twenty thousand of them, one per 2 MiB page here. Where the kernel
 * has transparent huge pages off (or the advice fails) the mapping works as ordinary 4 KiB pages. The memory is
 * zero-filled, as anonymous mappings always are. Java (org.sparkbeton.codec.nativeimpl.HugePageMemory) keeps the
 * buffers it was given and frees only those; this side still refuses any buffer whose address or length could not
 * have come from allocate0.
 */
#include "betoncodec.h"
#include <limits.h>
#include <stdint.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

static size_t mapped_length(jlong bytes) {
  return ((size_t)bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/* a direct ByteBuffer of `bytes` bytes (1 .. INT_MAX) at a 2 MiB boundary, or NULL (no memory, bad size) */
JNIEXPORT jobject JNICALL Java_org_sparkbeton_codec_nativeimpl_HugePageMemory_allocate0(JNIEnv *env, jclass cls,
                                                                                       jlong bytes) {
  (void)cls;
  if (bytes <= 0 || bytes > INT_MAX) {
    return NULL;
  }
  size_t len = mapped_length(bytes);
  /* one huge page more than needed, so that a 2 MiB boundary lies inside; the edges are given back */
  unsigned char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    return NULL;
  }
  unsigned char *at = (unsigned char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
  size_t head = (size_t)(at - raw);
  if (head > 0) {
    munmap(raw, head);
  }
  munmap(at + len, HUGE_PAGE - head); /* never empty: head < HUGE_PAGE */
#ifdef MADV_HUGEPAGE
  madvise(at, len, MADV_HUGEPAGE); /* advice only: EINVAL where THP is compiled out, and the pages are then 4 KiB */
#endif
  jobject buffer = (*env)->NewDirectByteBuffer(env, at, bytes);
  if (buffer == NULL) {
    munmap(at, len); /* an OutOfMemoryError is pending in Java */
  }
  return buffer;
}

/* unmaps a buffer allocate0 returned: 0, or RC_BAD_ARGUMENT for anything that cannot be one (not direct, not on a
 * 2 MiB boundary, empty) */
JNIEXPORT jint JNICALL Java_org_sparkbeton_codec_nativeimpl_HugePageMemory_free0(JNIEnv *env, jclass cls,
                                                                                jobject buffer) {
  (void)cls;
  unsigned char *at = buffer == NULL ? NULL : (*env)->GetDirectBufferAddress(env, buffer);
  jlong bytes = buffer == NULL ? -1 : (*env)->GetDirectBufferCapacity(env, buffer);
  if (at == NULL || bytes <= 0 || bytes > INT_MAX || ((uintptr_t)at & (HUGE_PAGE - 1)) != 0) {
    return RC_BAD_ARGUMENT;
  }
  return munmap(at, mapped_length(bytes)) == 0 ? 0 : RC_BAD_ARGUMENT;
}
