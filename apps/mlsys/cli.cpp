#include "apps/mlsys/cli.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "core/config/docs.hpp"
#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace po = boost::program_options;

namespace mlsys::app {

int ParsedArgs::count(const std::string& long_name) const {
  return static_cast<int>(std::count(given.begin(), given.end(), long_name));
}

void add_verbosity_options(po::options_description& desc) {
  // A vector of zero-token values may repeat, where a plain switch refuses a second -v.
  desc.add_options()("verbose,v", po::value<std::vector<std::string>>()->zero_tokens()->composing(),
                     "More output, one run.log_level step per v (-v: debug from the default info)")
      ("quiet,q", po::value<std::vector<std::string>>()->zero_tokens()->composing(),
       "Less output, one run.log_level step per q (-q: warn, -qq: error, -qqq: quiet)");
}

int verbosity_of(const ParsedArgs& parsed) { return parsed.count("verbose") - parsed.count("quiet"); }

po::options_description command_options(const CommandSpec& cmd) {
  po::options_description desc("Options");
  desc.add_options()("help,h", "Show this help")
      ("set", po::value<std::vector<std::string>>()->composing(), "Override a config key: --set key.path=value (repeatable)")
      ("out", po::value<std::string>(), "Output folder (run.out_dir)")
      ("seed", po::value<std::string>(), "Random seed (run.seed)")
      ("overwrite", "Allow writing into an existing run folder (run.overwrite=true)");
  add_verbosity_options(desc);
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
  ss << " [CONFIG.yaml ...] [--set key=value ...] [--out DIR] [--seed N] [-v|-q ...]\n\n";
  ss << cmd.summary << "\n";
  if (!cmd.modes.empty()) {
    ss << "\nModes (the optional first word, or " << cmd.mode_key << "; default " << default_mode(cmd) << "):\n";
    for (const auto& m : cmd.modes) ss << fmt::format("  {:<10} {}\n", m.name, m.description);
    ss << "A first word that is a mode is always the mode, even beside a file of that name (write ./"
       << cmd.modes.front().name << " for the file).\n";
  }
  if (!cmd.usage_notes.empty()) ss << "\n" << cmd.usage_notes << "\n";
  ss << "\n" << command_options(cmd);
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

// "unrecognised option '--polcy'" plus the nearest option this command takes.
static std::string unknown_option_message(const po::unknown_option& e, const po::options_description& desc) {
  std::string name = e.get_option_name();
  std::string bare = name.substr(name.find_first_not_of('-') == std::string::npos ? 0 : name.find_first_not_of('-'));
  std::vector<std::string> known;
  for (const auto& o : desc.options())
    if (!o->long_name().empty()) known.push_back(o->long_name());
  std::string near = bare.size() > 1 ? nearest(bare, known) : "";
  return std::string(e.what()) + (near.empty() ? "" : " (did you mean '--" + near + "'?)");
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
    po::parsed_options parsed = po::command_line_parser(args).options(all).positional(pos).run();
    for (const auto& o : parsed.options)
      if (o.string_key != "positional") out.given.push_back(o.string_key);
    po::store(parsed, out.options);
    po::notify(out.options);
  } catch (const po::unknown_option& e) {
    throw UsageError(unknown_option_message(e, desc) + " (see `" + help_for + "`)");
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see `" + help_for + "`)");
  }
  if (out.options.count("positional")) out.positional = out.options["positional"].as<std::vector<std::string>>();
  return out;
}

Invocation parse_command_args(const CommandSpec& cmd, const std::vector<std::string>& args) {
  ParsedArgs parsed = parse_args(command_options(cmd), args, "mlsys " + cmd.name + " --help");
  const po::variables_map& vm = parsed.options;
  Invocation inv;
  inv.help = vm.count("help") > 0;
  const std::vector<std::string> modes = cmd.mode_names();
  const std::vector<std::string>& positional = parsed.positional;
  for (size_t i = 0; i < positional.size(); ++i) {
    const std::string& p = positional[i];
    const bool is_mode = std::find(modes.begin(), modes.end(), p) != modes.end();
    // A mode word is a word before it is a path: `--out compare` leaves a folder named like the
    // mode, and the next `mlsys coopt compare cfg.yaml` must still run the mode.
    if (i == 0 && is_mode) {
      inv.sets.push_back(cmd.mode_key + "=" + p);
      continue;
    }
    if (!std::filesystem::exists(p)) {
      std::string msg = "config file not found: " + p;
      if (is_mode) {
        msg += " ('" + p + "' is a mode: give it first, `mlsys " + cmd.name + " " + p + " CONFIG.yaml`)";
      } else if (!modes.empty()) {
        std::string near = nearest(p, modes);
        msg += near.empty() ? " (modes are: " + join(modes, ", ") + ")" : " (did you mean the mode '" + near + "'?)";
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
  if (vm.count("overwrite")) inv.sets.push_back("run.overwrite=true");
  inv.verbosity = verbosity_of(parsed);
  return inv;
}

config::ResolvedConfig resolve_invocation(const std::vector<const config::SectionBase*>& sections,
                                          const std::vector<std::string>& files, std::vector<std::string> sets,
                                          int verbosity) {
  config::ResolvedConfig cfg = config::resolve(sections, files, sets);
  if (verbosity == 0) return cfg;
  const std::string key = run_section().name() + ".log_level";
  // The key's choices run from most to least verbose (debug ... quiet).
  const std::vector<std::string> levels = run_section().find("log_level")->choices();
  auto at = std::find(levels.begin(), levels.end(), cfg.scalar(key));
  const long now = at == levels.end() ? 0 : at - levels.begin();
  const long next = std::clamp<long>(now - verbosity, 0, static_cast<long>(levels.size()) - 1);
  sets.push_back(key + "=" + levels[static_cast<size_t>(next)]);
  return config::resolve(sections, files, sets);
}

}  // namespace mlsys::app
