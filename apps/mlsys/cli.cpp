#include "apps/mlsys/cli.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "core/config/docs.hpp"
#include "core/config/resolve.hpp"
#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace po = boost::program_options;

namespace mlsys::app {

static po::options_description options_for(const CommandSpec& cmd) {
  po::options_description desc("Options");
  desc.add_options()("help,h", "Show this help")
      ("set", po::value<std::vector<std::string>>()->composing(), "Override a config key: --set key.path=value (repeatable)")
      ("out", po::value<std::string>(), "Output folder (run.out_dir)")
      ("seed", po::value<std::string>(), "Random seed (run.seed)")
      ("verbose,v", "More output (run.log_level=debug)")
      ("quiet,q", "Less output (run.log_level=warn)")
      ("overwrite", "Allow writing into an existing run folder (run.overwrite=true)");
  for (const auto& f : cmd.flags) {
    if (f.takes_value) desc.add_options()(f.flag.c_str(), po::value<std::string>(), f.help.c_str());
    else desc.add_options()(f.flag.c_str(), f.help.c_str());
  }
  return desc;
}

// The mode a command runs when none is named: its mode key's declared default.
static std::string default_mode(const CommandSpec& cmd) {
  return config::resolve(cmd.sections, {}, {}).scalar(cmd.mode_key);
}

std::string command_help(const CommandSpec& cmd) {
  std::ostringstream ss;
  ss << "usage: mlsys " << cmd.name;
  if (!cmd.modes.empty()) ss << " [" << join(cmd.mode_names(), "|") << "]";
  ss << " [CONFIG.yaml ...] [--set key=value ...] [--out DIR] [--seed N] [-v|-q]\n\n";
  ss << cmd.summary << "\n";
  if (!cmd.modes.empty()) {
    ss << "\nModes (the optional first word, or " << cmd.mode_key << "; default " << default_mode(cmd) << "):\n";
    for (const auto& m : cmd.modes) ss << fmt::format("  {:<10} {}\n", m.name, m.description);
  }
  if (!cmd.usage_notes.empty()) ss << "\n" << cmd.usage_notes << "\n";
  ss << "\n" << options_for(cmd);
  ss << "\nPrecedence: built-in defaults < CONFIG files in order (each may `include:` others) < --set and flags.\n";
  ss << "\nConfig keys (type, default, allowed values):\n" << config::help_text(cmd.sections);
  return ss.str();
}

// Single-quoted YAML scalar, so any path survives --set parsing unchanged.
static std::string yaml_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

ParsedArgs parse_args(const po::options_description& desc, const std::vector<std::string>& args,
                      const std::string& help_for) {
  po::options_description hidden;
  hidden.add_options()("positional", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("positional", -1);
  ParsedArgs out;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), out.options);
    po::notify(out.options);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see `" + help_for + "`)");
  }
  if (out.options.count("positional")) out.positional = out.options["positional"].as<std::vector<std::string>>();
  return out;
}

Invocation parse_command_args(const CommandSpec& cmd, const std::vector<std::string>& args) {
  ParsedArgs parsed = parse_args(options_for(cmd), args, "mlsys " + cmd.name + " --help");
  const po::variables_map& vm = parsed.options;
  Invocation inv;
  inv.help = vm.count("help") > 0;
  const std::vector<std::string>& positional = parsed.positional;
  for (size_t i = 0; i < positional.size(); ++i) {
    const std::string& p = positional[i];
    bool is_mode = false;
    for (const auto& m : cmd.modes) is_mode = is_mode || m.name == p;
    if (i == 0 && is_mode && !std::filesystem::exists(p)) {
      inv.sets.push_back(cmd.mode_key + "=" + p);
      continue;
    }
    if (!std::filesystem::exists(p)) {
      std::string msg = "config file not found: " + p;
      if (!cmd.modes.empty()) {
        std::string near = nearest(p, cmd.mode_names());
        msg += near.empty() ? " (modes are: " + join(cmd.mode_names(), ", ") + ")" : " (did you mean the mode '" + near + "'?)";
      }
      throw UsageError(msg);
    }
    inv.files.push_back(p);
  }
  // Flags map onto config keys and win over --set only by coming later.
  if (vm.count("set"))
    for (const auto& s : vm["set"].as<std::vector<std::string>>()) inv.sets.push_back(s);
  for (const auto& f : cmd.flags) {
    if (!vm.count(f.flag)) continue;
    inv.sets.push_back(f.config_key + "=" + (f.takes_value ? vm[f.flag].as<std::string>() : std::string("true")));
    for (const auto& also : f.implies) inv.sets.push_back(also);
  }
  if (vm.count("out")) inv.sets.push_back("run.out_dir=" + yaml_quote(vm["out"].as<std::string>()));
  if (vm.count("seed")) inv.sets.push_back("run.seed=" + vm["seed"].as<std::string>());
  if (vm.count("verbose")) inv.sets.push_back("run.log_level=debug");
  if (vm.count("quiet")) inv.sets.push_back("run.log_level=warn");
  if (vm.count("overwrite")) inv.sets.push_back("run.overwrite=true");
  return inv;
}

}  // namespace mlsys::app
