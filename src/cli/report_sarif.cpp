// report_sarif.cpp - SARIF 2.1.0 (OASIS), as GitHub code scanning ingests it:
// one run, every rule in the driver with its help, one result per finding.
//   {"ruleId":"overlong","ruleIndex":1,"level":"error",
//    "message":{"text":"overlong at byte 3 (C0 AF 2E 2E)"},
//    "locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.txt"},
//      "region":{"startLine":1,"startColumn":4,"byteOffset":3,"byteLength":2}}}],
//    "partialFingerprints":{"utf8guardFinding/v1":"..."},
//    "properties":{"hint":"overlong_form","hintValue":"U+002F"}}
// The run's columnKind is unicodeCodePoints: COLUMN counts code points (with
// --percent it counts bytes, the same in ASCII input such as a log). The hint
// is in every result that has one; the message names it with --hints only,
// as the text line does. An input that cannot be read is a result of the
// rule "unreadable" at line 1. A relative path is a relative URI (GitHub
// resolves it from the repository's root), an absolute one a file:// URI.
#include "format.hpp"
#include "report.hpp"
#include "safe_text.hpp"

namespace utf8guard::cli {
namespace {

void append_text_object(std::string& out, std::string_view key, std::string_view text) {
  out.push_back('"');
  out.append(key);
  out.append("\":{\"text\":");
  out.append(json_quote_ci(text));
  out.push_back('}');
}

class sarif_reporter final : public reporter {
 public:
  sarif_reporter(const std::string& path, channel& out)
      : uri_(json_quote_ci(uri_reference(path))), fingerprints_(path), out_(out) {}

  [[nodiscard]] bool needs_context() const noexcept override { return true; }

  bool error(const found_error& e) override {
    std::string text;
    e.describe(text);
    start(&e, text);
    entry_.append(",\"region\":{\"startLine\":");
    append_number(entry_, e.line);
    entry_.append(",\"startColumn\":");
    append_number(entry_, e.column);
    entry_.append(",\"byteOffset\":");
    append_number(entry_, e.offset);
    entry_.append(",\"byteLength\":");
    append_number(entry_, e.length);
    entry_.push_back('}');
    const hint h = e.kind != error::disallowed ? e.the_hint() : hint{};
    std::string properties;  // members, each after a comma
    if (h.kind != hint_kind::none) append_hint_members(properties, h, "hintValue");
    return end(&e, properties);
  }

  bool finish(bool, std::uint64_t) override { return !out_.failed(); }

  bool unreadable(const std::string& why) override {
    start(nullptr, "unreadable: " + why);
    entry_.append(",\"region\":{\"startLine\":1}");  // where an annotation can show
    return end(nullptr, "");
  }

 private:
  // start begins a result up to its physical location's artifact.
  void start(const found_error* e, const std::string& text) {
    const std::size_t index = rule_index(e);
    entry_.assign(",{\"ruleId\":\"");
    entry_.append(rule(index).id);
    entry_.append("\",\"ruleIndex\":");
    append_number(entry_, index);
    entry_.append(",\"level\":\"error\",");
    append_text_object(entry_, "message", text);
    entry_.append(",\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
    entry_.append(uri_);
    entry_.push_back('}');
  }

  bool end(const found_error* e, const std::string& properties) {
    entry_.append("}}],\"partialFingerprints\":{\"utf8guardFinding/v1\":\"");
    entry_.append(fingerprints_.next(e));
    entry_.append("\"}");
    if (!properties.empty()) {
      entry_.append(",\"properties\":{");
      entry_.append(properties, 1, std::string::npos);  // less the first comma
      entry_.push_back('}');
    }
    entry_.append("}\n");
    return out_.out(entry_);
  }

  std::string uri_;
  fingerprint_source fingerprints_;
  channel& out_;
  std::string entry_;
};

}  // namespace

std::unique_ptr<reporter> make_sarif_reporter(const std::string& path, channel& out) {
  return std::make_unique<sarif_reporter>(path, out);
}

std::string sarif_document_start() {
  std::string doc =
      "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
      "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"utf8guard\",\"version\":\"";
  doc.append(version());
  doc.append("\",\"informationUri\":\"https://github.com/utf8guard/utf8guard\",\"rules\":[");
  for (std::size_t i = 0; i < kRuleCount; ++i) {
    const rule_info& r = rule(i);
    doc.append(i == 0 ? "{\"id\":\"" : ",{\"id\":\"");
    doc.append(r.id);
    doc.append("\",");
    append_text_object(doc, "shortDescription", r.name);
    doc.push_back(',');
    append_text_object(doc, "fullDescription", r.help);
    doc.push_back(',');
    append_text_object(doc, "help", r.help);
    doc.append(",\"defaultConfiguration\":{\"level\":\"error\"}");
    doc.append(",\"properties\":{\"tags\":[\"security\",\"encoding\"]}}");
  }
  doc.append("]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[\n");
  return doc;
}

}  // namespace utf8guard::cli
