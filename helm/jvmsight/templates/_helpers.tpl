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

{{/* podMonitor and serviceMonitor scrape the same pods: one of them only. */}}
{{- define "jvmsight.checkValues" -}}
{{- if and .Values.podMonitor.enabled .Values.serviceMonitor.enabled }}
{{- fail "jvmsight: podMonitor.enabled and serviceMonitor.enabled are both true; every pod would be scraped twice. Enable one of them." }}
{{- end }}
{{- end }}
