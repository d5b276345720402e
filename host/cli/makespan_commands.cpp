// `warpspan build`, `kernel` and `sm`: one schedule, a kernel string from PTX, the SM presets.
#include "makespan_options.hpp"

namespace warpspan::cli {

namespace {

// ------------------------------------------------------------------------------------ build
struct build_cmd {
  problem_options po;
  std::string str;
  std::string init;
  std::string svg;
  bool as_json = false;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "build", "build the schedule of one pseudo-precedence string (the builder of Berezovskyi et al. 2013)");
    po.add(sub);
    sub->add_option("--string", str, "warp ids, 1-based, e.g. \"1 1 2 2 3 3 1 2 3 4 4 4\"");
    sub->add_option(
        "--init", init,
        "or a constructed string: rr, fp, mpwf, starve or beam (a beam search over the exact search's states)");
    sub->add_option("--svg", svg, "also draw the schedule into this SVG file");
    sub->add_flag("--json", as_json, "print one JSON object");
    commands.emplace_back(sub, [this] { return run(); });
  }

  int run() {
    const problem prob = po.make();
    std::vector<std::uint16_t> s;
    if (!str.empty() && !init.empty()) throw input_error("give either --string or --init, not both");
    if (!str.empty()) {
      s = parse_warp_string(prob, str);
    } else {
      s = constructed_string(prob, init);
    }
    const built_schedule b = build_schedule(prob, s);
    std::string written;
    if (!svg.empty()) {
      const std::filesystem::path path(svg);
      written = write_file(
          path.has_parent_path() ? path.parent_path().string() : ".", path.filename().string(),
          schedule_svg(prob, b,
                       "Schedule of the given string: " + prob.kernel_text() + ", W = " + std::to_string(prob.warps)));
    }
    if (as_json) {
      json out{{"makespan", b.makespan},
               {"string", one_based(s)},
               {"warp_cycle_string", b.warp_cycle},
               {"upper_bound", pessimistic_bound(prob)},
               {"problem", problem_json(prob)}};
      if (!written.empty()) out["svg"] = written;
      std::cout << out.dump() << '\n';
      return 0;
    }
    std::vector<int> wc(b.warp_cycle.begin(), b.warp_cycle.end());
    std::cout << "makespan    " << b.makespan << " cycles\nstring      " << join(one_based(s)) << "\nwarp cycles "
              << join(wc) << "\n\n"
              << render_table(prob, b, terminal_columns());
    if (!written.empty()) std::cout << "wrote " << written << "\n";
    return 0;
  }
};

// ------------------------------------------------------------------------------------ kernel
struct kernel_cmd {
  problem_options po;
  bool as_json = false;
  bool trace = false;
  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "kernel",
        "show a kernel string: parse --kernel or import --ptx (loads/stores/atomics L, f64 D, "
        "sin/cos/lg2/ex2/rsqrt and approximate rcp/sqrt S, other arithmetic C; conditional branches fall through, "
        "an unconditional backward branch ends the walk: see data/kernels/README.md); with --sm a preset's PTX table "
        "counts "
        "IEEE div/sqrt/rcp, integer division and the like as the instruction sequences that SM runs "
        "(data/sm/README.md); "
        "with --sm/--sigma also the normalised form");
    po.add(sub, false);
    sub->add_flag("--trace", trace, "with --ptx: list every instruction walked and its class");
    sub->add_flag("--json", as_json, "print one JSON object");
    commands.emplace_back(sub, [this] { return run(); });
  }
  int run() {
    if (po.has_warp_kernels()) return run_groups();
    std::string origin;
    kernel_string raw;
    ptx_import_result imported;
    if (po.has_ptx()) {
      if (!po.kernel.empty() || given(po.kernel_opt)) throw input_error("give either --kernel or --ptx, not both");
      imported = import_ptx_file(po.ptx, po.make_ptx_options());
      warn_unwalked_loops(po.ptx, po.make_ptx_options(), imported);
      raw = imported.kernel;
    } else {
      raw = po.raw_kernel();
    }
    json out = po.has_ptx()
                   ? ptx_import_json(imported, trace)
                   : json{{"kernel", to_run_length(raw)}, {"plain", to_plain(raw)}, {"instructions", raw.size()}};
    std::string normalized;
    if (po.has_sm()) {
      const normalized_sm norm = normalize(po.make_sm());
      const kernel_string nk = normalize_kernel(raw, norm);
      out["normalized"] = to_run_length(nk);
      out["normalized_instructions"] = nk.size();
      normalized = to_run_length(nk) + " (" + std::to_string(nk.size()) + " instructions; " + describe(norm) + ")";
    }
    if (as_json) {
      std::cout << out.dump() << '\n';
      return 0;
    }
    std::cout << "kernel      " << to_run_length(raw) << " (" << raw.size() << " instructions)\n";
    if (!normalized.empty()) std::cout << "normalised  " << normalized << "\n";
    if (po.has_ptx()) {
      std::cout << "entry       " << imported.entry << "\nwalk ended  " << imported.stop_reason << "\n";
      for (const auto& l : imported.loops)
        std::cout << "loop        lines " << l.head_line << "-" << l.back_line << ": " << l.passes
                  << (l.passes == 1 ? " pass" : " passes") << " walked\n";
      if (imported.by_rule > 0)
        std::cout << "SM rules    " << imported.by_rule << (imported.by_rule == 1 ? " instruction" : " instructions")
                  << " counted as the SM runs them (its PTX table; --trace lists them)\n";
      if (trace)
        for (const auto& i : imported.trace) {
          std::cout << "  line " << std::setw(5) << i.line << "  " << letter(i.type) << "  " << i.opcode;
          if (i.runs_as.size() != 1 || i.runs_as[0] != i.type)
            std::cout << "  runs as "
                      << (i.runs_as.empty() ? std::string("nothing (an operand)") : to_run_length(i.runs_as));
          std::cout << "\n";
        }
    }
    return 0;
  }

  /// --warp-kernels: each group's kernel as --kernel shows it, with its warps.
  int run_groups() {
    const std::vector<warp_group> groups = po.raw_groups();
    const std::optional<normalized_sm> norm = po.has_sm() ? std::optional(normalize(po.make_sm())) : std::nullopt;
    json list = json::array();
    for (const warp_group& g : groups) {
      json one{{"kernel", to_run_length(g.kernel)},
               {"plain", to_plain(g.kernel)},
               {"instructions", g.kernel.size()},
               {"warps", g.warps}};
      if (norm) {
        const kernel_string nk = normalize_kernel(g.kernel, *norm);
        one["normalized"] = to_run_length(nk);
        one["normalized_instructions"] = nk.size();
      }
      list.push_back(one);
    }
    if (as_json) {
      std::cout << json{{"warp_kernels", list}}.dump() << '\n';
      return 0;
    }
    for (std::size_t k = 0; k < list.size(); ++k) {
      const json& g = list[k];
      std::cout << "group " << k + 1 << "     " << g["kernel"].get<std::string>() << " ("
                << g["instructions"].get<std::size_t>() << " instructions) x " << g["warps"].get<std::uint32_t>()
                << (g["warps"].get<std::uint32_t>() == 1 ? " warp" : " warps");
      if (norm)
        std::cout << "; normalised " << g["normalized"].get<std::string>() << " ("
                  << g["normalized_instructions"].get<std::size_t>() << " instructions)";
      std::cout << "\n";
    }
    if (norm) std::cout << "SM          " << describe(*norm) << "\n";
    return 0;
  }
};

// ------------------------------------------------------------------------------------ sm
struct sm_cmd {
  std::string name;
  CLI::Option* name_opt = nullptr;
  bool as_json = false;
  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("sm", "list the SM presets, or show one (name or JSON file) normalised");
    name_opt = sub->add_option("name", name, "preset name or JSON file");
    sub->add_flag("--json", as_json, "print JSON");
    commands.emplace_back(sub, [this] { return run(); });
  }
  int run() {
    if (name.empty() && !given(name_opt)) {
      if (as_json) {
        json list = json::array();
        for (const auto& p : sm_presets()) list.push_back(json::parse(p.json));
        std::cout << list.dump() << '\n';
        return 0;
      }
      for (const auto& p : sm_presets()) {
        const sm_config cfg = parse_sm_json(p.json, p.name);
        std::cout << std::left << std::setw(12) << p.name << " " << describe(normalize(cfg)) << "\n"
                  << std::setw(12) << ""
                  << " " << cfg.description << "\n";
      }
      return 0;
    }
    const sm_config cfg = load_sm(name);
    const normalized_sm norm = normalize(cfg);
    if (as_json) {
      json j = {{"name", cfg.name},
                {"description", cfg.description},
                {"source", cfg.source},
                {"warp_size", cfg.warp_size},
                {"schedulers", cfg.schedulers}};
      for (int u = 0; u < unit_count; ++u)
        j["normalized"][std::string(1, unit_letters[u])] = {{"sigma", norm.sigma[u]}, {"copies", norm.copies[u]}};
      std::cout << j.dump() << '\n';
      return 0;
    }
    std::cout << cfg.name << ": " << cfg.description << "\nsource: " << cfg.source << "\nwarp size " << cfg.warp_size
              << "\n"
              << describe(norm) << "\n";
    for (int u = 0; u < unit_count; ++u)
      std::cout << "  " << unit_letters[u] << ": " << cfg.units[u].units << " units, latency " << cfg.units[u].latency
                << " -> sigma " << norm.sigma[u] << ", each instruction " << norm.copies[u] << " notional cycle(s)\n";
    return 0;
  }
};

}  // namespace

void add_makespan_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  // The command objects live as long as the program; CLI11 binds options to their members.
  add_estimate_command(app, commands);
  static build_cmd build;
  build.add(app, commands);
  add_exact_commands(app, commands);
  static kernel_cmd kernel;
  kernel.add(app, commands);
  static sm_cmd sm;
  sm.add(app, commands);
}

}  // namespace warpspan::cli
