#pragma once
// Checks of the SVG pictures core/util/svg_chart writes, shared by the tests of every module that
// draws figures (#31.7): the picture's size and text size, and that no element lies outside it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

namespace mlsys::test {

// The value of attribute `name` in one element's text ("" when absent).
inline std::string attr_text(const std::string& el, const std::string& name) {
  const size_t a = el.find(" " + name + "=\"");
  if (a == std::string::npos) return "";
  const size_t v = a + name.size() + 3;
  return el.substr(v, el.find('"', v) - v);
}

inline double num_attr(const std::string& el, const std::string& name) { return std::stod(attr_text(el, name)); }

// Characters a text element shows (an entity counts as one).
inline size_t shown_chars(const std::string& s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&') i = s.find(';', i);
    ++n;
  }
  return n;
}

struct Picture {
  double w = 0, h = 0, font = 0, points_per_unit = 0;  // points_per_unit 0: a screen picture in pixels
};

inline Picture picture(const std::string& svg) {
  const std::string root = svg.substr(0, svg.find('>'));
  Picture p;
  const std::string vb = attr_text(root, "viewBox");
  std::sscanf(vb.c_str(), "0 0 %lf %lf", &p.w, &p.h);
  p.font = num_attr(root, "font-size");
  const std::string w = attr_text(root, "width");
  if (w.size() > 2 && w.substr(w.size() - 2) == "in") p.points_per_unit = std::stod(w) * 72 / p.w;
  return p;
}

// Every text (its extent estimated at 0.6 em per character, ascent 0.75 em, descent 0.25 em; turned
// text by its rotate()), rect, line, circle and polyline point lies inside the viewBox.
inline void check_unclipped(const std::string& svg) {
  const Picture pic = picture(svg);
  auto inside = [&](double x0, double y0, double x1, double y1, const std::string& what) {
    CAPTURE(what);
    CHECK(x0 >= -0.05);
    CHECK(y0 >= -0.05);
    CHECK(x1 <= pic.w + 0.05);
    CHECK(y1 <= pic.h + 0.05);
  };
  for (size_t p = svg.find('<', 1); p != std::string::npos; p = svg.find('<', p + 1)) {
    if (svg[p + 1] == '/') continue;
    const size_t end = svg.find('>', p);
    const std::string el = svg.substr(p, end - p);
    const std::string tag = el.substr(1, el.find_first_of(" >", 1) - 1);
    if (tag == "text") {
      const std::string content = svg.substr(end + 1, svg.find('<', end) - end - 1);
      const double fs = attr_text(el, "font-size").empty() ? pic.font : num_attr(el, "font-size");
      const double x = num_attr(el, "x"), y = num_attr(el, "y"), w = 0.6 * fs * static_cast<double>(shown_chars(content));
      const std::string anchor = attr_text(el, "text-anchor");
      const double a0 = anchor == "middle" ? -w / 2 : anchor == "end" ? -w : 0;  // along the text, from its anchor
      if (el.find("rotate(-90") != std::string::npos)  // reads upwards: along the text is -y, its ascent -x
        inside(x - 0.75 * fs, y - (a0 + w), x + 0.25 * fs, y - a0, "turned text " + content);
      else
        inside(x + a0, y - 0.75 * fs, x + a0 + w, y + 0.25 * fs, "text " + content);
    } else if (tag == "rect" && attr_text(el, "width") != "100%") {
      const double x = num_attr(el, "x"), y = num_attr(el, "y");
      inside(x, y, x + num_attr(el, "width"), y + num_attr(el, "height"), el);
    } else if (tag == "line") {
      inside(std::min(num_attr(el, "x1"), num_attr(el, "x2")), std::min(num_attr(el, "y1"), num_attr(el, "y2")),
             std::max(num_attr(el, "x1"), num_attr(el, "x2")), std::max(num_attr(el, "y1"), num_attr(el, "y2")), el);
    } else if (tag == "circle") {
      const double x = num_attr(el, "cx"), y = num_attr(el, "cy"), r = num_attr(el, "r");
      inside(x - r, y - r, x + r, y + r, el);
    } else if (tag == "polyline") {
      std::istringstream pts(attr_text(el, "points"));
      for (std::string xy; pts >> xy;) {
        const double x = std::stod(xy), y = std::stod(xy.substr(xy.find(',') + 1));
        inside(x, y, x, y, "polyline point " + xy);
      }
    }
  }
}

// A picture of panels (svg_chart's side_by_side_svg / stacked_svg): each panel lies inside the
// picture and nothing of it outside the panel. A single chart is checked as it is.
inline void check_unclipped_panels(const std::string& svg) {
  const std::string root = svg.substr(0, svg.find('>'));
  if (!attr_text(root, "font-size").empty()) return check_unclipped(svg);
  const Picture whole = picture(svg.substr(0, svg.find('>')) + " font-size=\"0\">");
  size_t panels = 0;
  for (size_t p = svg.find("<svg x=", 1); p != std::string::npos; p = svg.find("<svg x=", p + 1), ++panels) {
    const std::string panel = svg.substr(p, svg.find("</svg>", p) + 7 - p);
    const std::string tag = panel.substr(0, panel.find('>'));
    CHECK(num_attr(tag, "x") + num_attr(tag, "width") <= whole.w + 0.05);
    CHECK(num_attr(tag, "y") + num_attr(tag, "height") <= whole.h + 0.05);
    check_unclipped(panel);
  }
  CHECK(panels > 0);
}

}  // namespace mlsys::test
