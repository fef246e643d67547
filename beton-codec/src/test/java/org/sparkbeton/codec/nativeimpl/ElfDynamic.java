package org.sparkbeton.codec.nativeimpl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a 64-bit little-endian ELF shared library is built for, needs and exports, read from its headers, as
 * {@code readelf -h} (Machine), {@code readelf -d} (NEEDED), {@code readelf -V} (the symbol versions it needs, such
 * as {@code GLIBC_2.14}) and {@code nm -D --defined-only} (exported symbols) show it. {@code machine} is the
 * header's e_machine: {@link #X86_64} or {@link #AARCH64} here.
 */
record ElfDynamic(int machine, List<String> needed, List<String> versionsNeeded, List<String> exported,
    boolean textRelocations) {
  static final int X86_64 = 62;
  static final int AARCH64 = 183;

  private static final int SHT_DYNAMIC = 6;
  private static final int SHT_DYNSYM = 11;
  private static final int SHT_GNU_VERNEED = 0x6ffffffe;
  private static final long DT_NEEDED = 1;
  private static final long DT_TEXTREL = 22;
  private static final long DT_FLAGS = 30;
  private static final long DF_TEXTREL = 0x4;
  private static final int STB_GLOBAL = 1;
  private static final int STB_WEAK = 2;

  static ElfDynamic parse(byte[] file) {
    ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    if (file.length < 64 || b.getInt(0) != 0x464c457f || file[4] != 2 || file[5] != 1) {
      throw new IllegalArgumentException("not a 64-bit little-endian ELF file");
    }
    int machine = Short.toUnsignedInt(b.getShort(0x12));
    long shoff = b.getLong(0x28);
    int shentsize = Short.toUnsignedInt(b.getShort(0x3a));
    int shnum = Short.toUnsignedInt(b.getShort(0x3c));
    List<String> needed = new ArrayList<>();
    List<String> versions = new ArrayList<>();
    List<String> exported = new ArrayList<>();
    boolean textrel = false;
    for (int i = 0; i < shnum; i++) {
      int sh = Math.toIntExact(shoff + (long) i * shentsize);
      int type = b.getInt(sh + 4);
      int offset = Math.toIntExact(b.getLong(sh + 0x18));
      int size = Math.toIntExact(b.getLong(sh + 0x20));
      int strtab = Math.toIntExact(b.getLong(Math.toIntExact(shoff + (long) b.getInt(sh + 0x28) * shentsize) + 0x18));
      if (type == SHT_DYNAMIC) {
        for (int e = offset; e + 16 <= offset + size; e += 16) {
          long tag = b.getLong(e);
          long value = b.getLong(e + 8);
          if (tag == DT_NEEDED) {
            needed.add(string(file, strtab + Math.toIntExact(value)));
          }
          textrel |= tag == DT_TEXTREL || (tag == DT_FLAGS && (value & DF_TEXTREL) != 0);
        }
      } else if (type == SHT_GNU_VERNEED) {
        // Elf64_Verneed (vn_cnt at 2, vn_aux at 8, vn_next at 12), each with vn_cnt Elf64_Vernaux (vna_name at 8,
        // vna_next at 12); sh_info entries
        int entries = b.getInt(sh + 0x2c);
        for (int n = 0, vn = offset; n < entries; n++) {
          int count = Short.toUnsignedInt(b.getShort(vn + 2));
          for (int a = 0, aux = vn + b.getInt(vn + 8); a < count; a++) {
            versions.add(string(file, strtab + b.getInt(aux + 8)));
            aux += b.getInt(aux + 12);
          }
          vn += b.getInt(vn + 12);
        }
      } else if (type == SHT_DYNSYM) {
        for (int s = offset + 24; s + 24 <= offset + size; s += 24) { // entry 0 is the null symbol
          int bind = (file[s + 4] & 0xff) >>> 4;
          int shndx = Short.toUnsignedInt(b.getShort(s + 6));
          if ((bind == STB_GLOBAL || bind == STB_WEAK) && shndx != 0) {
            exported.add(string(file, strtab + b.getInt(s)));
          }
        }
      }
    }
    return new ElfDynamic(machine, List.copyOf(needed), List.copyOf(versions), List.copyOf(exported), textrel);
  }

  private static String string(byte[] file, int at) {
    int end = at;
    while (file[end] != 0) {
      end++;
    }
    return new String(file, at, end - at, StandardCharsets.US_ASCII);
  }
}
