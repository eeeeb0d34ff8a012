// Validates every object of the given multi-document YAML files against the
// Kubernetes (and Prometheus Operator, cert-manager) schemas of npm kubernetes-models,
// offline. An object of a kind without a schema here fails too: nothing is
// waved through unchecked.
//   node validate.js rendered.yaml...
"use strict";
const fs = require("fs");
const YAML = require("yaml");

function modelFor(apiVersion, kind) {
  const candidates = apiVersion.startsWith("monitoring.coreos.com/")
    ? [`@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`]
    : apiVersion.startsWith("cert-manager.io/")
      ? [`@kubernetes-models/cert-manager/${apiVersion}/${kind}`]
      : [`kubernetes-models/${apiVersion}/${kind}`];
  for (const name of candidates) {
    try {
      return require(name)[kind];
    } catch (e) {
      if (e.code !== "MODULE_NOT_FOUND" && e.code !== "ERR_PACKAGE_PATH_NOT_EXPORTED") throw e;
    }
  }
  return undefined;
}

let count = 0;
const errors = [];
for (const file of process.argv.slice(2)) {
  for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, "utf8"))) {
    if (doc.errors.length) {
      errors.push(`${file}: YAML error: ${doc.errors[0].message}`);
      continue;
    }
    const obj = doc.toJS();
    if (obj === null) continue;
    const where = `${file}: ${obj.kind}/${obj.metadata && obj.metadata.name}`;
    const Model = obj.apiVersion && obj.kind && modelFor(obj.apiVersion, obj.kind);
    if (!Model) {
      errors.push(`${where}: no schema for ${obj.apiVersion} ${obj.kind}`);
      continue;
    }
    try {
      new Model(obj).validate();
      count++;
    } catch (e) {
      errors.push(`${where}: ${e.message}`);
    }
  }
}
for (const e of errors) console.error(`validate: FAIL: ${e}`);
console.log(`validate: ${count} objects valid, ${errors.length} failures`);
process.exit(errors.length ? 1 : 0);
