//===- ReplayMain.cpp - Run a fuzz target on saved inputs -----------------===//
//
// The main of the fuzz targets in builds without libFuzzer (GCC, the default):
// runs LLVMFuzzerTestOneInput once on every file named on the command line,
// and on every file under each directory named, in sorted order, so that the
// test suite replays the seed corpus and the regression inputs in every
// build. A broken invariant traps inside the target and ends the process;
// a return value other than libFuzzer's 0 and -1, an unreadable path and an
// empty input set are failures too (exit status 1), so that a mistyped path
// cannot pass as a replayed corpus.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                          char ***argv);

namespace fs = std::filesystem;

/// Appends `path`, or the regular files under it, to `files`.
static bool collect(const fs::path &path, std::vector<fs::path> &files) {
  std::error_code error;
  if (fs::is_directory(path, error)) {
    std::vector<fs::path> found;
    for (fs::recursive_directory_iterator it(path, error), end;
         !error && it != end; it.increment(error))
      if (it->is_regular_file(error))
        found.push_back(it->path());
    if (error) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), error.message().c_str());
      return false;
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
    return true;
  }
  if (!fs::is_regular_file(path, error)) {
    std::fprintf(stderr, "%s: not a file or directory\n", path.c_str());
    return false;
  }
  files.push_back(path);
  return true;
}

int main(int argc, char **argv) {
  const char *tool = argc > 0 ? argv[0] : "fuzz target";
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s <input or directory>...\n"
                 "Runs this fuzz target once on every input (replay only: "
                 "this build has no libFuzzer).\n",
                 tool);
    return 1;
  }
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i)
    if (!collect(argv[i], files))
      return 1;
  if (files.empty()) {
    std::fprintf(stderr, "%s: no inputs\n", tool);
    return 1;
  }
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  for (const fs::path &file : files) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
    if (in.bad()) {
      std::fprintf(stderr, "%s: cannot read\n", file.c_str());
      return 1;
    }
    // Exactly the input's bytes on the heap, as libFuzzer passes them, so
    // that a sanitized build sees reads past the end.
    std::vector<uint8_t> input(bytes.begin(), bytes.end());
    int result = LLVMFuzzerTestOneInput(input.data(), input.size());
    if (result != 0 && result != -1) {
      std::fprintf(stderr, "%s: LLVMFuzzerTestOneInput returned %d\n",
                   file.c_str(), result);
      return 1;
    }
  }
  std::printf("%s: replayed %zu inputs\n", fs::path(tool).filename().c_str(),
              files.size());
  return 0;
}
