#include <doctest/doctest.h>

#include <string>

#include "core/config/docs.hpp"
#include "core/config/resolve.hpp"
#include "core/util/error.hpp"

using namespace mlsys;
using namespace mlsys::config;

namespace {

// A building block declared once, in its own section object, and nested twice below.
struct LinkOptions {
  double gbps = 10;
  std::string kind = "pcie";
};

const Section<LinkOptions>& link_block() {
  static const Section<LinkOptions> s("link", "A link", [](auto& s) {
    s.field("gbps", &LinkOptions::gbps, "Bandwidth").range(0.1, 1000);
    s.field("kind", &LinkOptions::kind, "Link kind").choices_described([] {
      return std::vector<Choice>{{"pcie", "PCI Express"}, {"nvlink", "NVIDIA NVLink"}};
    });
  });
  return s;
}

struct HostOptions {
  int64_t gpus = 8;
  LinkOptions up;
  LinkOptions down;
};

const Section<HostOptions>& host_section() {
  static const Section<HostOptions> s("host", "A host with two nested links", [](auto& s) {
    s.field("gpus", &HostOptions::gpus, "GPUs").range(1, 64);
    s.nest("up", &HostOptions::up, link_block());
    s.nest("down", &HostOptions::down, link_block());
  });
  return s;
}

}  // namespace

TEST_CASE("a nested section keeps its defaults and rules, under its prefix, in each place it is nested") {
  auto cfg = resolve({&host_section()}, {}, {"host.up.gbps=25", "host.down.kind=nvlink"});
  const auto& h = cfg.get(host_section());
  CHECK(h.gpus == 8);
  CHECK(h.up.gbps == 25);
  CHECK(h.up.kind == "pcie");
  CHECK(h.down.gbps == 10);
  CHECK(h.down.kind == "nvlink");
  CHECK(cfg.scalar("host.down.kind") == "nvlink");
  CHECK_THROWS_WITH_AS(resolve({&host_section()}, {}, {"host.up.gbps=5000"}), doctest::Contains("host.up.gbps"), ConfigError);
  CHECK_THROWS_WITH_AS(resolve({&host_section()}, {}, {"host.down.kind=pci"}), doctest::Contains("did you mean 'pcie'"),
                       ConfigError);
  YAML::Node y = cfg.to_yaml();
  CHECK(y["host"]["up"]["gbps"].as<double>() == 25);
  CHECK(y["host"]["down"]["kind"].as<std::string>() == "nvlink");
}

TEST_CASE("described choices reach --help and the generated docs") {
  std::string help = help_text({&host_section()});
  CHECK(help.find("nvlink") != std::string::npos);
  CHECK(help.find("NVIDIA NVLink") != std::string::npos);
  std::string md = markdown({&host_section()});
  CHECK(md.find("- `pcie`: PCI Express") != std::string::npos);
  CHECK(md.find("one of: pcie, nvlink") != std::string::npos);
}
