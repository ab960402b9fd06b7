// VTK outputs from the command line: how large a snapshot is, and --vtk-compression. The files'
// values are read back by an independent reader in tests/vtk_readback.py (CTest vtk:readback).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "cli_run.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
using cellgraph::test::run_cli;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cli: a 2048^2 Life VTK snapshot is UInt8 in zlib blocks, under 1.2 MB") {
  ScratchDir dir;
  // A soup of density 0.5 is the hardest case for compression: a bit of entropy per cell, so
  // 512 KiB at best; a byte per cell uncompressed is 4 MiB (5.6 MB in base64).
  const std::string life = "run --backend cpu --grid 2048x2048 --rule B3/S23 --fill 0.5 --steps 1 --vtk ";
  auto r = run_cli(life + dir / "z");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  const std::string snapshot = dir / "z_000000.vti";
  CHECK(fs::file_size(snapshot) < 1'200'000);
  const std::string xml = read_file(snapshot);
  CHECK(has(xml, "header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\""));
  CHECK(has(xml, "<DataArray type=\"UInt8\" Name=\"state\" format=\"binary\">"));

  r = run_cli(life + dir / "raw --vtk-compression none");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  const std::string raw = read_file(dir / "raw_000000.vti");
  CHECK(!has(raw, "compressor"));
  CHECK(has(raw, "<DataArray type=\"UInt8\" Name=\"state\" format=\"binary\">"));
  CHECK(fs::file_size(dir / "raw_000000.vti") > 5'592'400);  // base64 of 8 + 2048^2 bytes
  CHECK(fs::file_size(dir / "raw_000000.vti") < 5'593'000);
}

TEST_CASE("cli: --vtk-compression is zlib or none, for grids and particles alike") {
  ScratchDir dir;
  auto r = run_cli("run --grid 8x8 --fill 0.5 --steps 1 --vtk " + dir / "g --vtk-compression gzip");
  CHECK(r.status != 0);
  CHECK(has(r.out, "--vtk-compression must be zlib or none, not 'gzip'"));
  CHECK(dir.empty());

  const std::string vicsek = "run --backend cpu --model vicsek --particles 50 --box 5 --steps 2 --vtk ";
  r = run_cli(vicsek + dir / "p --vtk-compression none");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(!has(read_file(dir / "p_000002.vtu"), "compressor"));
  r = run_cli(vicsek + dir / "q");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(has(read_file(dir / "q_000002.vtu"), "compressor=\"vtkZLibDataCompressor\""));
  r = run_cli(vicsek + dir / "r --vtk-compression lz4");
  CHECK(r.status != 0);
  CHECK(has(r.out, "--vtk-compression must be zlib or none, not 'lz4'"));
}
