#include "models/lifelike.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <vector>

#include "cellgraph/error.hpp"

namespace cellgraph::models {
namespace {

[[noreturn]] void bad_rule(const std::string& text, const std::string& why) {
  throw Error("unknown rule " + quoted_text(text) + ": " + why +
              " (B/S notation like B3/S23, Generations like /2/3 or B2/S/C3)");
}

// "23" -> counts 2 and 3; "3,10" -> counts 3 and 10.
std::uint64_t parse_counts(const std::string& text, std::string_view counts) {
  std::uint64_t mask = 0;
  auto add = [&](std::string_view number) {
    unsigned c = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), c);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() || c > 63)
      bad_rule(text, "neighbor counts are digits, or comma lists of numbers up to 63");
    mask |= std::uint64_t(1) << c;
  };
  if (counts.find(',') == std::string_view::npos) {
    for (std::size_t i = 0; i < counts.size(); ++i) add(counts.substr(i, 1));
  } else {
    for (std::size_t start = 0;;) {
      std::size_t comma = counts.find(',', start);
      add(counts.substr(start, comma - start));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  }
  return mask;
}

std::uint32_t parse_state_count(const std::string& text, std::string_view number) {
  unsigned c = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), c);
  if (number.empty() || ec != std::errc() || end != number.data() + number.size() || c < 2 || c > 256)
    bad_rule(text, "the number of states must be from 2 to 256");
  return c;
}

std::vector<std::string_view> split_slashes(std::string_view s) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    std::size_t at = s.find('/', start);
    parts.push_back(s.substr(start, at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

const std::map<std::string, std::string>& named_rules() {
  static const std::map<std::string, std::string> names = {
      {"life", "B3/S23"},           {"conway", "B3/S23"},    {"highlife", "B36/S23"}, {"seeds", "B2/S"},
      {"daynight", "B3678/S34678"}, {"briansbrain", "/2/3"}, {"brians-brain", "/2/3"}};
  return names;
}

}  // namespace

LifeLike parse_lifelike_rule(const std::string& original) {
  std::string text = original;
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  std::string lower = original;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (auto it = named_rules().find(lower); it != named_rules().end()) text = it->second;
  if (text.empty()) bad_rule(original, "empty rule");

  LifeLike rule;
  auto parts = split_slashes(text);
  const bool lettered = text.find_first_of("BSC") != std::string::npos;
  if (lettered) {
    bool seen_b = false, seen_s = false, seen_c = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::string_view p = parts[i];
      if (p.empty()) bad_rule(original, "empty part");
      const char tag = p[0];
      const bool bare_states = std::isdigit(static_cast<unsigned char>(tag)) && i == 2;
      if (tag == 'B' && !seen_b) seen_b = true, rule.birth = parse_counts(original, p.substr(1));
      else if (tag == 'S' && !seen_s) seen_s = true, rule.survive = parse_counts(original, p.substr(1));
      else if ((tag == 'C' || bare_states) && !seen_c)
        seen_c = true, rule.states = parse_state_count(original, tag == 'C' ? p.substr(1) : p);
      else
        bad_rule(original, parts.size() == 1 ? "expected parts like B3 and S23" : "unexpected part " + quoted_text(p));
    }
    if (!seen_b || !seen_s) bad_rule(original, "a B part and an S part are required");
  } else {
    if (parts.size() < 2 || parts.size() > 3) bad_rule(original, "expected S/B or S/B/C");
    rule.survive = parse_counts(original, parts[0]);
    rule.birth = parse_counts(original, parts[1]);
    if (parts.size() == 3) rule.states = parse_state_count(original, parts[2]);
  }
  return rule;
}

std::string rule_string(const LifeLike& rule) {
  auto counts = [](std::uint64_t mask) {
    std::string s;
    bool wide = mask >> 10;
    for (unsigned c = 0; c < 64; ++c)
      if (mask >> c & 1) s += (wide && !s.empty() ? "," : "") + std::to_string(c);
    return s;
  };
  if (rule.states > 2) return counts(rule.survive) + "/" + counts(rule.birth) + "/" + std::to_string(rule.states);
  return "B" + counts(rule.birth) + "/S" + counts(rule.survive);
}

}  // namespace cellgraph::models
