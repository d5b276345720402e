// The emulated occupancy calculator: every kernel's registers, static shared memory and thread
// limit as nvcc compiled it for sm_90 (resource_usage.tsv beside this file, generated from the nvcc
// build by scripts/resource_usage.py and compiled in), and the sm_90 limits applied to them by the
// calculator's arithmetic (include/warpspan/core/occupancy.hpp).
//
// A kernel is found by its host function's name: the emulation compiles the kernels as plain
// functions, whose symbols (local ones too: kernels live in anonymous namespaces) are read from the
// ELF symbol table of the executable or library that holds the address, demangled, and keyed as
// the script keys nvcc's (the parameters and return type dropped). A kernel that is not in the
// table is an error (cudaErrorInvalidDeviceFunction and a line naming it), not a default: a new
// kernel gets its row by running the script on an nvcc build.
#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "cuda_runtime.h"
#include "warpspan/core/occupancy.hpp"

namespace warpspan::emu {

namespace {

constexpr const char resource_table[] =
#include "resource_usage.inc"
    ;

std::string key_of(std::string s) {
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') {
        ++depth;
      } else if (s[i] == '(' && --depth == 0) {
        s.resize(i);
        break;
      }
    }
  }
  if (s.rfind("void ", 0) == 0) s.erase(0, 5);
  return s;
}

const std::unordered_map<std::string, kernel_resources>& table() {
  static const auto parsed = [] {
    std::unordered_map<std::string, kernel_resources> t;
    std::istringstream in(resource_table);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string> f;
      std::size_t at = 0;
      for (std::size_t tab; (tab = line.find('\t', at)) != std::string::npos; at = tab + 1)
        f.push_back(line.substr(at, tab - at));
      f.push_back(line.substr(at));
      if (f.size() != 5) {
        std::fprintf(stderr, "warpspan emulation: bad line in resource_usage.tsv: %s\n", line.c_str());
        std::abort();
      }
      kernel_resources k;
      k.registers = std::stoi(f[1]);
      k.static_shared = std::stoul(f[2]);
      k.max_threads = std::stoi(f[4]);
      t[f[0]] = k;
    }
    return t;
  }();
  return parsed;
}

/// Function symbols (address relative to the load base -> mangled name) of one ELF file.
using symbol_map = std::map<std::uintptr_t, std::string>;

symbol_map read_symbols(const std::string& path) {
  symbol_map out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  const auto read_at = [fd](void* to, std::size_t n, off_t at) {
    return ::pread(fd, to, n, at) == static_cast<ssize_t>(n);
  };
  Elf64_Ehdr eh;
  if (!read_at(&eh, sizeof eh, 0) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr)) {
    ::close(fd);
    return out;
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  if (!read_at(sections.data(), sections.size() * sizeof(Elf64_Shdr), static_cast<off_t>(eh.e_shoff))) {
    ::close(fd);
    return out;
  }
  // The full symbol table (local symbols too) where the file has one, else the dynamic one.
  for (const Elf64_Word kind : {Elf64_Word{SHT_SYMTAB}, Elf64_Word{SHT_DYNSYM}}) {
    for (const Elf64_Shdr& s : sections) {
      if (s.sh_type != kind || s.sh_link >= sections.size()) continue;
      std::vector<Elf64_Sym> symbols(s.sh_size / sizeof(Elf64_Sym));
      const Elf64_Shdr& strtab = sections[s.sh_link];
      std::string names(strtab.sh_size, '\0');
      if (!read_at(symbols.data(), symbols.size() * sizeof(Elf64_Sym), static_cast<off_t>(s.sh_offset)) ||
          !read_at(names.data(), names.size(), static_cast<off_t>(strtab.sh_offset)))
        continue;
      for (const Elf64_Sym& sym : symbols)
        if (ELF64_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_value != 0 && sym.st_name < names.size())
          out.emplace(static_cast<std::uintptr_t>(sym.st_value), names.c_str() + sym.st_name);
    }
    if (!out.empty()) break;
  }
  ::close(fd);
  // Executables (ET_EXEC) hold absolute addresses: the caller subtracts a base of 0.
  if (eh.e_type == ET_EXEC) out.emplace(0, "");
  return out;
}

struct object_of {
  std::uintptr_t address = 0, base = 0;
  std::string path;
  bool found = false;
};

int find_object(dl_phdr_info* info, std::size_t, void* data) {
  auto* o = static_cast<object_of*>(data);
  for (int k = 0; k < info->dlpi_phnum; ++k) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[k];
    if (ph.p_type != PT_LOAD) continue;
    const std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (o->address >= start && o->address < start + ph.p_memsz) {
      o->base = info->dlpi_addr;
      o->path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
      o->found = true;
      return 1;
    }
  }
  return 0;
}

std::mutex names_mutex;

}  // namespace

std::string kernel_name(const void* function) {
  std::lock_guard<std::mutex> lock(names_mutex);
  static std::unordered_map<const void*, std::string> known;
  static std::unordered_map<std::string, symbol_map> files;
  if (const auto it = known.find(function); it != known.end()) return it->second;
  object_of o;
  o.address = reinterpret_cast<std::uintptr_t>(function);
  std::string name;
  if (dl_iterate_phdr(find_object, &o) != 0 && o.found) {
    auto file = files.find(o.path);
    if (file == files.end()) file = files.emplace(o.path, read_symbols(o.path)).first;
    const symbol_map& symbols = file->second;
    const bool absolute = symbols.count(0) != 0;
    const auto it = symbols.find(absolute ? o.address : o.address - o.base);
    if (it != symbols.end() && !it->second.empty()) {
      int status = 0;
      std::unique_ptr<char, decltype(&std::free)> demangled(
          abi::__cxa_demangle(it->second.c_str(), nullptr, nullptr, &status), &std::free);
      name = key_of(status == 0 && demangled ? demangled.get() : it->second);
    }
  }
  known.emplace(function, name);
  return name;
}

const kernel_resources* resources_of(const void* function, std::string* name_out) {
  std::string name = kernel_name(function);
  const auto& t = table();
  const auto it = t.find(name);
  if (name_out) *name_out = name;
  if (it == t.end()) {
    std::fprintf(stderr,
                 "warpspan emulation: kernel %s is not in cuda/emulation/resource_usage.tsv (its registers are "
                 "unknown); regenerate the table from an nvcc build: python3 scripts/resource_usage.py "
                 "build/libwarpspan_cuda.a -o cuda/emulation/resource_usage.tsv\n",
                 name.empty() ? "(unnamed: no symbol for its address)" : name.c_str());
    return nullptr;
  }
  return &it->second;
}

cudaError_t occupancy_block_size(int* min_grid, int* block, const void* function,
                                 const std::function<std::size_t(int)>& smem_of, int block_limit,
                                 std::size_t dynamic_limit, int sms) {
  const kernel_resources* k = resources_of(function, nullptr);
  if (k == nullptr) return cudaErrorInvalidDeviceFunction;
  const block_size_choice c = max_potential_block_size(sm90_limits(), *k, smem_of, dynamic_limit, block_limit);
  // As the runtime: no block size that runs gives 0 and 0, not an error.
  *block = c.block;
  *min_grid = c.threads_per_sm == 0 ? 0 : c.blocks_per_sm * sms;
  return cudaSuccess;
}

cudaError_t occupancy_active_blocks(int* blocks, const void* function, int threads, std::size_t dynamic_smem,
                                    std::size_t dynamic_limit) {
  const kernel_resources* k = resources_of(function, nullptr);
  if (k == nullptr) return cudaErrorInvalidDeviceFunction;
  *blocks = dynamic_smem > dynamic_limit ? 0 : blocks_per_sm(sm90_limits(), *k, threads, dynamic_smem).blocks;
  return cudaSuccess;
}

}  // namespace warpspan::emu
