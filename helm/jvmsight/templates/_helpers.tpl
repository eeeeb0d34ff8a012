{{/* Names and labels of the objects this chart installs. */}}
{{- define "jvmsight.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "jvmsight.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "jvmsight.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "jvmsight.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "jvmsight.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "jvmsight.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/*
The pods the monitoring objects scrape: every pod the injection labelled.
Installed as a dependency of an application chart, only that release's
pods, so several such releases in one namespace are scraped once each.
*/}}
{{- define "jvmsight.podSelector" -}}
jvmsight/injected: "true"
{{- if not .Chart.IsRoot }}
jvmsight/release: {{ .Release.Name | quote }}
{{- end }}
{{- end }}

{{/*
Checks the schema cannot word clearly; they run whenever the chart renders,
as a release or as a dependency. podMonitor and serviceMonitor would scrape
the same pods twice.
*/}}
{{- define "jvmsight.checkValues" -}}
{{- if and .Values.podMonitor.enabled .Values.serviceMonitor.enabled }}
{{- fail "jvmsight: podMonitor.enabled and serviceMonitor.enabled are both true; every pod would be scraped twice. Enable one of them." }}
{{- end }}
{{- $a := .Values.agent }}
{{- if not (regexMatch "^(localhost|[0-9]{1,3}(\\.[0-9]{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$" $a.host) }}
{{- fail (printf "jvmsight: agent.host %q is not a numeric IPv4 or IPv6 address or localhost (the agent binds to it and refuses host names)" $a.host) }}
{{- end }}
{{- $d := int64 $a.deadlockCheckMs }}
{{- if and (gt $d 0) (lt $d 50) }}
{{- fail (printf "jvmsight: agent.deadlockCheckMs %d is below 50; use 50 to 60000 milliseconds, or 0 to turn the deadlock check off" $d) }}
{{- end }}
{{- $s := $a.contentionSampling }}
{{- if kindIs "string" $s }}
{{- if ne $s "off" }}
{{- fail (printf "jvmsight: agent.contentionSampling %q is neither a number from 100 to 10000000 nor \"off\"" $s) }}
{{- end }}
{{- else if or (lt (int64 $s) 100) (gt (int64 $s) 10000000) }}
{{- fail (printf "jvmsight: agent.contentionSampling %d is outside 100..10000000 (or use \"off\")" (int64 $s)) }}
{{- end }}
{{- if not (regexMatch "^$|^[a-z_]+=[^,\\s]*(,[a-z_]+=[^,\\s]*)*$" $a.extraOptions) }}
{{- fail (printf "jvmsight: agent.extraOptions %q is not key=value pairs separated by commas" $a.extraOptions) }}
{{- end }}
{{- if not (regexMatch "^/[^\\s,=]*[^/\\s,=]$" .Values.injection.mountPath) }}
{{- fail (printf "jvmsight: injection.mountPath %q must be an absolute path without a trailing slash, spaces, commas or '='" .Values.injection.mountPath) }}
{{- end }}
{{- end }}

{{/*
"true" where the Prometheus operator's objects may be rendered: the cluster
serves monitoring.coreos.com/v1, or prometheusOperator.force says so.
Helm refuses an install with objects of an API the cluster does not know.
*/}}
{{- define "jvmsight.operatorApi" -}}
{{- if or .Values.prometheusOperator.force (.Capabilities.APIVersions.Has "monitoring.coreos.com/v1") }}true{{ end }}
{{- end }}

{{/* The injector's objects: one name, its own component label. */}}
{{- define "jvmsight.injectorName" -}}
{{- printf "%s-injector" (include "jvmsight.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "jvmsight.injectorSelector" -}}
app.kubernetes.io/name: {{ include "jvmsight.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: injector
{{- end }}

{{- define "jvmsight.injectorLabels" -}}
{{ include "jvmsight.labels" . }}
app.kubernetes.io/component: injector
{{- end }}
