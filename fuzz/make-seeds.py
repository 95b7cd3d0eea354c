#!/usr/bin/env python3
"""Writes the committed seed corpora of the fuzz harnesses (fuzz/seeds/).

    fuzz/make-seeds.py [output-dir]      (default: fuzz/seeds next to this file)

Every seed is built here from the formats' definitions, so the corpora are
small, deterministic and reproducible: OffloadBinary containers, offload entry
tables in both layouts (in memory and inside minimal ELF objects), ar archives
with a symbol index, and wrapper command lines. Seeds produced by clang-22
itself are added at build time by fuzz/clang-seeds.sh; these ones cover what
clang-22 no longer writes (the legacy entry layout) and the shapes the
readers must reject.

Run it again after changing it and commit the result; the seeds are few
hundred bytes each.
"""
import os
import shutil
import struct
import sys

# --- OffloadBinary (LLVM 22, version 1) -------------------------------------

OFFLOAD_MAGIC = b"\x10\xff\x10\xad"
IMG_OBJECT, IMG_BITCODE, IMG_CUBIN = 1, 2, 3
OFK_OPENMP = 1


def align(n, to=8):
    return (n + to - 1) // to * to


def offload_binary(image, strings, image_kind=IMG_OBJECT, version=1):
    """One container: header (32 bytes), entry (40), string table, strings,
    then the image at an 8-byte boundary; the total is padded to 8."""
    header_size, entry_size = 32, 40
    string_table = header_size + entry_size
    string_data = string_table + 16 * len(strings)
    blob, offsets = b"", []
    for key, value in strings:
        key_offset = string_data + len(blob)
        blob += key.encode() + b"\0"
        value_offset = string_data + len(blob)
        blob += value.encode() + b"\0"
        offsets.append((key_offset, value_offset))
    image_offset = align(string_data + len(blob))
    size = align(image_offset + len(image))
    out = OFFLOAD_MAGIC + struct.pack("<IQQQ", version, size, header_size,
                                      entry_size)
    out += struct.pack("<HHIQQQQ", image_kind, OFK_OPENMP, 0, string_table,
                       len(strings), image_offset, len(image))
    for key_offset, value_offset in offsets:
        out += struct.pack("<QQ", key_offset, value_offset)
    out += blob
    out += b"\0" * (image_offset - len(out)) + image
    return out + b"\0" * (size - len(out))


CPU_STRINGS = [("triple", "x86_64-pc-linux-gnu"), ("arch", "generic")]
NVPTX_STRINGS = [("triple", "nvptx64-nvidia-cuda"), ("arch", "sm_90"),
                 ("feature", "+ptx80")]
AMD_STRINGS = [("triple", "amdgcn-amd-amdhsa"), ("arch", "gfx90a")]

# --- Offload entries ---------------------------------------------------------

# Flags (OffloadEntries.h): 0 kernel / `to` global, 1 link, 2 enter,
# 8 indirect, 0x10 requires, 0x20 indirect vtable.


def current_entry(address, name, size=0, flags=0, data=0, aux=0):
    """LLVM 22's 56-byte record."""
    return struct.pack("<QHHIQQQQQ", 0, 1, OFK_OPENMP, flags, address, name,
                       size, data, aux)


def legacy_entry(address, name, size=0, flags=0):
    """The 32-byte record of older compilers."""
    return struct.pack("<QQQiI", address, name, size, flags, 0)


# --- Minimal ELF64 little-endian x86-64 objects --------------------------------

SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_RELA, SHT_NOBITS = 1, 2, 3, 4, 8
SHT_LLVM_OFFLOADING = 0x6FFF4C0B
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR, SHF_STRINGS = 1, 2, 4, 0x20
SHF_EXCLUDE = 0x80000000
STB_LOCAL, STB_GLOBAL = 0, 1
STT_NOTYPE, STT_FUNC, STT_SECTION = 0, 2, 3
R_X86_64_64 = 1
ET_REL, ET_DYN = 1, 3


class Elf:
    """Sections and symbols of an ELF file, laid out by write()."""

    def __init__(self, linked=False):
        self.linked = linked
        self.sections = []  # dicts: name type flags data link info align entsize
        self.symbols = []  # (name, value, section name or None, bind, type)

    def section(self, name, kind, data, flags=SHF_ALLOC, align_to=8,
                addr=0, link=None, info=None, entsize=0):
        self.sections.append(dict(name=name, type=kind, data=data,
                                  flags=flags, align=align_to, addr=addr,
                                  link=link, info=info, entsize=entsize))
        return len(self.sections)  # index, the null section being 0

    def symbol(self, name, value=0, section=None, bind=STB_GLOBAL,
               kind=STT_NOTYPE):
        self.symbols.append((name, value, section, bind, kind))
        return len(self.symbols)  # index, the null symbol being 0

    def index(self, section_name):
        for i, sec in enumerate(self.sections):
            if sec["name"] == section_name:
                return i + 1
        raise KeyError(section_name)

    def write(self):
        # The symbol table: locals first, as ELF requires.
        strtab = b"\0"
        symtab = b"\0" * 24
        locals_ = [s for s in self.symbols if s[3] == STB_LOCAL]
        globals_ = [s for s in self.symbols if s[3] != STB_LOCAL]
        assert self.symbols == locals_ + globals_, "add local symbols first"
        for name, value, sec, bind, kind in self.symbols:
            name_offset = len(strtab) if name else 0
            if name:
                strtab += name.encode() + b"\0"
            shndx = self.index(sec) if sec else 0
            symtab += struct.pack("<IBBHQQ", name_offset, (bind << 4) | kind,
                                  0, shndx, value, 0)
        sections = list(self.sections)
        symtab_index = len(sections) + 1
        sections.append(dict(name=".symtab", type=SHT_SYMTAB, data=symtab,
                             flags=0, align=8, addr=0,
                             link=symtab_index + 1,
                             info=1 + len(locals_), entsize=24))
        sections.append(dict(name=".strtab", type=SHT_STRTAB, data=strtab,
                             flags=0, align=1, addr=0, link=0, info=0,
                             entsize=0))
        sections.append(dict(name=".shstrtab", type=SHT_STRTAB, data=b"",
                             flags=0, align=1, addr=0, link=0, info=0,
                             entsize=0))
        shstrtab = b"\0"
        for sec in sections:
            sec["name_offset"] = len(shstrtab)
            shstrtab += sec["name"].encode() + b"\0"
        sections[-1]["data"] = shstrtab

        body = b""
        offset = 64
        for sec in sections:
            if sec["type"] == SHT_NOBITS:
                sec["offset"] = offset
                continue
            pad = align(offset, sec["align"]) - offset
            body += b"\0" * pad
            offset += pad
            sec["offset"] = offset
            body += sec["data"]
            offset += len(sec["data"])
        shoff = align(offset)
        body += b"\0" * (shoff - offset)

        headers = b"\0" * 64  # the null section
        for sec in sections:
            link = sec["link"]
            if link == "symtab":
                link = symtab_index
            info = sec["info"]
            if isinstance(info, str):
                info = self.index(info)
            headers += struct.pack("<IIQQQQIIQQ", sec["name_offset"],
                                   sec["type"], sec["flags"], sec["addr"],
                                   sec["offset"], len(sec["data"]),
                                   link or 0, info or 0, sec["align"],
                                   sec["entsize"])
        ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
        header = ident + struct.pack(
            "<HHIQQQIHHHHHH", ET_DYN if self.linked else ET_REL, 62, 1, 0, 0,
            shoff, 0, 64, 0, 0, 64, len(sections) + 1, len(sections))
        return header + body + headers


def rela(offset, symbol, addend, kind=R_X86_64_64):
    return struct.pack("<QQq", offset, (symbol << 32) | kind, addend)


def fat_object(defines, calls=(), layout="current", image_strings=CPU_STRINGS,
               kernels=("__omp_offloading_fuzz_kernel",),
               globals_=(("fuzz_global", 4, 0),)):
    """A relocatable object like clang's: a function per symbol in `defines`
    (calling `calls`), an entry per kernel and global whose name and address
    are relocations, and a device image in .llvm.offloading."""
    elf = Elf()
    text = b"\xc3" * max(1, len(defines))  # one `ret` per function
    elf.section(".text", SHT_PROGBITS, text, SHF_ALLOC | SHF_EXECINSTR, 16)
    names = b""
    name_offsets = []
    for name in list(kernels) + [g[0] for g in globals_]:
        name_offsets.append(len(names))
        names += name.encode() + b"\0"
    elf.section(".rodata.str1.1", SHT_PROGBITS, names,
                SHF_ALLOC | SHF_STRINGS, 1, entsize=1)
    data = b"\0" * max(8, 4 * len(globals_))
    elf.section(".data", SHT_PROGBITS, data, SHF_ALLOC | SHF_WRITE, 8)
    table_name = ("llvm_offload_entries" if layout == "current"
                  else "omp_offloading_entries")
    entry = current_entry if layout == "current" else legacy_entry
    record = 56 if layout == "current" else 32
    records, relocations = b"", b""
    # Symbols: the section symbol of the names, then the kernels' region ids
    # and the globals (local), then the functions and calls (global).
    str_sym = elf.symbol("", 0, ".rodata.str1.1", STB_LOCAL, STT_SECTION)
    kernel_syms = [elf.symbol(".omp_offloading." + k, i, ".data", STB_LOCAL)
                   for i, k in enumerate(kernels)]
    global_syms = []
    for i, (name, size, flags) in enumerate(globals_):
        global_syms.append(elf.symbol(name, 4 * i, ".data", STB_LOCAL))
    for i, name in enumerate(defines):
        elf.symbol(name, i, ".text", STB_GLOBAL, STT_FUNC)
    for name in calls:
        elf.symbol(name)
    address_field = 16 if layout == "current" else 0
    items = [(s, 0, 0) for s in kernel_syms] + \
        [(s, g[1], g[2]) for s, g in zip(global_syms, globals_)]
    for i, (sym, size, flags) in enumerate(items):
        records += entry(0, 0, size, flags)
        base = i * record
        relocations += rela(base + address_field, sym, 0)
        relocations += rela(base + address_field + 8, str_sym,
                            name_offsets[i])
    elf.section(table_name, SHT_PROGBITS, records, SHF_ALLOC | SHF_WRITE, 8)
    elf.section(".rela" + table_name, SHT_RELA, relocations, 0, 8,
                link="symtab", info=table_name, entsize=24)
    image = offload_binary(b"\x7fELF device image of " +
                           ",".join(defines).encode(), image_strings)
    elf.section(".llvm.offloading", SHT_LLVM_OFFLOADING, image, SHF_EXCLUDE, 8)
    return elf.write()


def linked_library(layout="current"):
    """A linked shared library: entries point at their names by address."""
    elf = Elf(linked=True)
    base = 0x1000
    names = b"__omp_offloading_fuzz_kernel\0fuzz_global\0"
    elf.section(".rodata", SHT_PROGBITS, names, SHF_ALLOC, 1, addr=base)
    data_addr = 0x2000
    elf.section(".data", SHT_PROGBITS, b"\0" * 8, SHF_ALLOC | SHF_WRITE, 8,
                addr=data_addr)
    entry = current_entry if layout == "current" else legacy_entry
    table_name = ("llvm_offload_entries" if layout == "current"
                  else "omp_offloading_entries")
    records = entry(data_addr, base, 0, 0) + \
        entry(data_addr + 4, base + 29, 4, 0)
    elf.section(table_name, SHT_PROGBITS, records, SHF_ALLOC | SHF_WRITE, 8,
                addr=0x3000)
    return elf.write()


# --- ar archives -------------------------------------------------------------


def archive(members, index=True):
    """A GNU ar archive of (name, bytes, defined symbols) with a symbol index
    when `index`."""

    def header(name, size):
        return ("%-16s%-12s%-6s%-6s%-8s%-10d`\n" %
                (name, "0", "0", "0", "644", size)).encode()

    def pad(data):
        return data + (b"\n" if len(data) % 2 else b"")

    symbols = [(sym, i) for i, (_, _, syms) in enumerate(members)
               for sym in syms]
    index_size = 4 + 4 * len(symbols) + \
        sum(len(s) + 1 for s, _ in symbols)
    start = 8 + ((60 + index_size + index_size % 2) if index else 0)
    offsets, offset = [], start
    for name, data, _ in members:
        offsets.append(offset)
        offset += 60 + len(pad(data))
    out = b"!<arch>\n"
    if index:
        table = struct.pack(">I", len(symbols))
        table += b"".join(struct.pack(">I", offsets[i]) for _, i in symbols)
        table += b"".join(s.encode() + b"\0" for s, _ in symbols)
        out += header("/", len(table)) + pad(table)
    for name, data, _ in members:
        out += header(name + "/", len(data)) + pad(data)
    return out


# --- Wrapper command lines ---------------------------------------------------


def command_line(*args):
    return b"\0".join(a.encode() for a in args)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "seeds")
    if os.path.isdir(out):
        shutil.rmtree(out)
    seeds = {}

    cpu = offload_binary(b"\x7fELF cpu image", CPU_STRINGS)
    nvptx = offload_binary(b"// PTX\n.version 8.0\n", NVPTX_STRINGS,
                           IMG_CUBIN)
    amd = offload_binary(b"BC\xc0\xde", AMD_STRINGS, IMG_BITCODE)
    seeds["offload-container"] = {
        "cpu": cpu,
        "nvptx": nvptx,
        "two-records": cpu + amd,
        "three-records": nvptx + cpu + amd,
        "no-strings": offload_binary(b"image", []),
        "empty-image": offload_binary(b"", CPU_STRINGS),
        "duplicate-keys": offload_binary(
            b"x", CPU_STRINGS + [("triple", "nvptx64-nvidia-cuda")]),
        # Rejected: a future version and a record claiming more bytes than
        # the section has.
        "version-2": offload_binary(b"x", CPU_STRINGS, version=2),
        "truncated": cpu[:len(cpu) - 8],
    }

    fake = 0x7F0000001000  # pointer values the runtime never follows
    seeds["entry-table"] = {
        "current": current_entry(fake, fake + 64) +
        current_entry(fake + 8, fake + 96, 4, 2) +
        current_entry(0, fake + 128, 0, 0x10, data=0x8),
        "current-indirect": current_entry(fake, fake + 64, 8, 0x8) +
        current_entry(fake + 8, fake + 72, 16, 0x20),
        "legacy": legacy_entry(fake, fake + 64) +
        legacy_entry(fake + 8, fake + 96, 4, 1) +
        legacy_entry(fake + 16, fake + 128, 0, 2),
        "no-name": current_entry(fake, 0),
        "short": current_entry(fake, fake + 64)[:40],
    }

    seeds["entry-object"] = {
        "relocatable-current": fat_object(["fuzz_a"]),
        "relocatable-legacy": fat_object(["fuzz_a"], layout="legacy"),
        "linked-current": linked_library(),
        "linked-legacy": linked_library("legacy"),
    }

    a = fat_object(["fuzz_a"], calls=["fuzz_b"])
    b = fat_object(["fuzz_b"], image_strings=NVPTX_STRINGS)
    c = fat_object(["fuzz_c"], image_strings=AMD_STRINGS, layout="legacy")
    members = [("a.o", a, ["fuzz_a"]), ("b.o", b, ["fuzz_b"]),
               ("c.o", c, ["fuzz_c"])]
    # The first byte chooses how the link sees the input (see
    # FuzzArchiveScanner.cpp): 1 whole archive, 2 group, 4 should-extract,
    # 8 named twice.
    seeds["archive-scanner"] = {
        "object": b"\x00" + a,
        "archive": b"\x00" + archive(members),
        "archive-whole": b"\x01" + archive(members),
        "archive-group-extract": b"\x0e" + archive(members),
        "archive-no-index": b"\x04" + archive(members, index=False),
        "archive-text-member": b"\x01" + archive(
            [("notes.txt", b"not an object\n", [])]),
    }

    seeds["wrapper-options"] = {
        "cpu-link": command_line(
            "--host-triple=x86_64-pc-linux-gnu", "--linker-path=/usr/bin/ld",
            "--hash-style=gnu", "-m", "elf_x86_64", "-pie",
            "-dynamic-linker", "/lib64/ld-linux-x86-64.so.2", "-o", "a.out",
            "crt1.o", "-L/usr/lib", "main.o", "-lomp", "-lomptarget",
            "-lc"),
        "groups-and-archives": command_line(
            "--wrapper-jobs=2", "-Bstatic", "--whole-archive", "libx.a",
            "--no-whole-archive", "--start-group", "-lfoo", "-lbar",
            "--end-group", "-Bdynamic", "-(", "-lbaz", "-)", "-u", "sym",
            "--entry=start", "--sysroot=/sys"),
        "device-args": command_line(
            "--device-linker=nvptx64-nvidia-cuda=-v",
            "--device-linker=--defsym=a=1",
            "--device-compiler=amdgcn-amd-amdhsa=-O3",
            "--should-extract=sm_90", "-mllvm", "-debug-only=x",
            "--offload-opt=-pass-remarks=.*", "--cuda-path=/usr/local/cuda",
            "--save-temps", "--wrapper-verbose", "--dry-run"),
        "relocatable": command_line("-r", "-o", "out.o", "a.o", "b.o",
                                    "--print-wrapped-module"),
        "rejected": command_line("--wrapper-jobs=0", "--embed-bitcode",
                                 "--wrapper-unknown", "-o"),
    }

    total = 0
    for harness, files in sorted(seeds.items()):
        os.makedirs(os.path.join(out, harness))
        for name, data in sorted(files.items()):
            with open(os.path.join(out, harness, name), "wb") as f:
                f.write(data)
            total += len(data)
    print("make-seeds: wrote %d seeds, %d bytes, into %s" %
          (sum(len(f) for f in seeds.values()), total, out))


if __name__ == "__main__":
    main()
