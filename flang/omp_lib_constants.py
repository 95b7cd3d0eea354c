#!/usr/bin/env python3
"""Device definitions of the named constants of Flang's omp_lib modules.

Flang declares every named constant of `omp_lib` and `omp_lib_kinds` in the
device code of a program that uses the module (`@_QMomp_libEC<name> =
external constant i32`), whether or not the program uses it: the modules
exist only as .mod files, and no object file defines them. The host's code
generator drops unused declarations; the NVPTX one writes `.extern` for each,
and nvlink then rejects the cubin. This script writes, for each device
target, an LLVM IR module defining those constants with the values the
modules give them, so the device link of any program finds them.

How (nothing is hard-coded, so the output follows the installed Flang):
  1. For each target, flang --offload-device-only -S -emit-llvm on a small
     program that uses omp_lib lists the declared constants with their exact
     IR type and address space.
  2. A host program using the modules prints the bit pattern and size of
     each constant; its size must agree with the IR type.
  3. Each declaration is rewritten as a weak, hidden definition with that
     value (weak: a program that defines the module itself wins; hidden: the
     constants stay inside the device image).

Only scalar integer and logical constants are generated (all that Flang 22's
modules have); any other kind of declaration is reported and left out.

Usage: omp_lib_constants.py --flang <flang-22> --output-dir <dir>
                            <triple>[=<flang option>,...] ...
writes <dir>/omp_lib_constants-<triple>.ll for each triple.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

PROBE_SOURCE = """\
! Uses the OpenMP modules in a target region, so the device code declares
! their constants.
program ompx_probe
  use omp_lib
  use omp_lib_kinds
  implicit none
  integer :: n
  !$omp target map(from: n)
  n = omp_get_team_num()
  !$omp end target
  print *, n
end program
"""

# @_QM<module>EC<name> = external [addrspace(N) ]constant <type>[, ...]
DECLARATION = re.compile(
    r"^@(?P<symbol>_QM(?P<module>omp_lib(?:_kinds)?)EC(?P<name>\w+)) = "
    r"external (?P<before>(?:addrspace\(\d+\) )?)constant "
    r"(?P<type>\S+)(?P<after>.*)$")
INTEGER_TYPE = re.compile(r"^i(8|16|32|64)$")

# Prints "<symbol> <bits> <value>" for one constant of each supported type;
# the value is the constant's bit pattern as a signed integer of its size.
SHOW_MODULE = """\
module ompx_show
  implicit none
  interface show
    module procedure show_i1, show_i2, show_i4, show_i8
    module procedure show_l1, show_l2, show_l4, show_l8
  end interface
contains
{procedures}
end module
"""
SHOW_PROCEDURE = """\
  subroutine show_{tag}{kind}(symbol, v)
    character(*), intent(in) :: symbol
    {type}({kind}), intent(in) :: v
    write (*, '(A,1X,I0,1X,I0)') symbol, storage_size(v), transfer(v, 0_{kind})
  end subroutine
"""


class Failure(Exception):
    pass


def run(argv, what):
    result = subprocess.run(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True)
    if result.returncode != 0:
        raise Failure("{0} failed (exit code {1}): {2}\n{3}".format(
            what, result.returncode, " ".join(argv), result.stderr.strip()))
    return result.stdout


def probe_target(flang, triple, options, workdir):
    """Returns (header lines, declarations) of the device module."""
    source = os.path.join(workdir, "ompx_probe.f90")
    output = os.path.join(workdir, "ompx_probe-" + triple + ".ll")
    if not options:
        options = ["-fopenmp-targets=" + triple]
    run([flang, "-fopenmp"] + options +
        ["--offload-device-only", "-S", "-emit-llvm", source, "-o", output],
        "the device compilation of the omp_lib probe for " + triple)
    header = []
    declarations = []
    with open(output) as ir:
        for line in ir:
            line = line.rstrip("\n")
            if line.startswith(("target datalayout", "target triple")):
                header.append(line)
                continue
            match = DECLARATION.match(line)
            if match:
                declarations.append(match)
    if not any(line.startswith("target triple") for line in header):
        raise Failure("the device code flang wrote for " + triple +
                      " (" + output + ") has no target triple")
    return header, declarations


def read_values(flang, symbols, workdir):
    """Returns {symbol: (bits, value)} from a host program."""
    procedures = []
    for tag, type_name in (("i", "integer"), ("l", "logical")):
        for kind in (1, 2, 4, 8):
            procedures.append(SHOW_PROCEDURE.format(tag=tag, type=type_name,
                                                    kind=kind))
    lines = [SHOW_MODULE.format(procedures="".join(procedures)),
             "program ompx_values", "  use ompx_show"]
    for index, (symbol, module, name) in enumerate(symbols):
        lines.append("  use {0}, only: c{1} => {2}".format(module, index,
                                                          name))
    lines.append("  implicit none")
    for index, (symbol, module, name) in enumerate(symbols):
        lines.append("  call show('{0}', c{1})".format(symbol, index))
    lines.append("end program")
    source = os.path.join(workdir, "ompx_values.f90")
    program = os.path.join(workdir, "ompx_values")
    with open(source, "w") as out:
        out.write("\n".join(lines) + "\n")
    run([flang, "-fopenmp", source, "-o", program],
        "building the program that prints the omp_lib constants")
    values = {}
    for line in run([program], "the omp_lib constants program").splitlines():
        fields = line.split()
        if len(fields) != 3:
            raise Failure("unexpected output from the omp_lib constants "
                          "program: '" + line + "'")
        values[fields[0]] = (int(fields[1]), int(fields[2]))
    return values


def write_atomically(path, text):
    temp = path + ".tmp"
    try:
        with open(temp, "w") as out:
            out.write(text)
        os.replace(temp, path)
    except OSError as error:
        if os.path.exists(temp):
            os.remove(temp)
        raise Failure("cannot write " + path + ": " + str(error))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flang", required=True)
    parser.add_argument("--output-dir", required=True)
    parser.add_argument("targets", nargs="+",
                        metavar="TRIPLE[=OPTION,...]")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="ompx-omp-lib-") as workdir:
        with open(os.path.join(workdir, "ompx_probe.f90"), "w") as out:
            out.write(PROBE_SOURCE)
        probes = []
        for spec in args.targets:
            triple, _, options = spec.partition("=")
            options = [o for o in options.split(",") if o]
            probes.append((triple,) + probe_target(args.flang, triple,
                                                   options, workdir))

        # One host program for the constants of every target.
        symbols = {}
        for triple, header, declarations in probes:
            for match in declarations:
                if not INTEGER_TYPE.match(match.group("type")):
                    continue
                symbols[match.group("symbol")] = (match.group("module"),
                                                  match.group("name"))
        if not symbols:
            raise Failure("flang declared no omp_lib constant in device code;"
                          " nothing to define")
        ordered = sorted((s,) + symbols[s] for s in symbols)
        values = read_values(args.flang, ordered, workdir)

        for triple, header, declarations in probes:
            lines = ["; Named constants of Flang's omp_lib and omp_lib_kinds"
                     " for " + triple + ",",
                     "; generated by flang/omp_lib_constants.py from " +
                     args.flang + "."] + header
            for match in declarations:
                symbol, type_name = match.group("symbol"), match.group("type")
                integer = INTEGER_TYPE.match(type_name)
                if not integer:
                    print("omp_lib_constants.py: warning: " + symbol +
                          " has IR type '" + type_name + "' for " + triple +
                          "; only integer and logical scalars are defined",
                          file=sys.stderr)
                    continue
                if symbol not in values:
                    raise Failure("no value printed for " + symbol)
                bits, value = values[symbol]
                if bits != int(integer.group(1)):
                    raise Failure(
                        "{0} is {1} bits on the host but {2} in the {3} "
                        "device code".format(symbol, bits, type_name, triple))
                lines.append("@{0} = weak hidden {1}constant {2} {3}{4}".format(
                    symbol, match.group("before"), type_name, value,
                    match.group("after")))
            write_atomically(
                os.path.join(args.output_dir,
                             "omp_lib_constants-" + triple + ".ll"),
                "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as error:
        print("omp_lib_constants.py: error: " + str(error), file=sys.stderr)
        sys.exit(1)
