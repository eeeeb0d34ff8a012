{{/*
Injection templates, for an application chart that has jvmsight as a
dependency (docs/KUBERNETES.md, "Helm chart", has the full example). Each
takes the application chart's root context and reads .Values.jvmsight (or
.Values when rendered inside this chart):

  initContainers: {{ include "jvmsight.initContainer" . | nindent 8 }}
  volumes:        {{ include "jvmsight.volume" . | nindent 8 }}
  pod labels:     {{ include "jvmsight.podLabels" . | nindent 8 }}
  pod annotations:{{ include "jvmsight.podAnnotations" . | nindent 8 }}
  in the Java container:
    env:          {{ include "jvmsight.env" (dict "context" . "javaToolOptions" "-Xmx512m") | nindent 12 }}
    ports:        {{ include "jvmsight.port" . | nindent 12 }}
    volumeMounts: {{ include "jvmsight.volumeMount" . | nindent 12 }}

jvmsight.env also takes the root context alone. Its dict form carries the
container's own JAVA_TOOL_OPTIONS and OTEL_RESOURCE_ATTRIBUTES
("resourceAttributes"), which the agent's are appended to: Kubernetes keeps
only the last of two variables with one name.
*/}}

{{/*
The values the injection reads, as JSON (a template returns text only):
this chart's own when rendered here, else the application chart's
.Values.jvmsight. Numbers come back as floats, so all go through
jvmsight.number.
*/}}
{{- define "jvmsight.v" -}}
{{- $v := dict }}
{{- if eq .Chart.Name "jvmsight" }}{{ $v = .Values }}
{{- else if hasKey .Values "jvmsight" }}{{ $v = .Values.jvmsight }}
{{- else }}{{ fail "jvmsight injection templates: no values under .Values.jvmsight; add the jvmsight chart to this chart's dependencies (docs/KUBERNETES.md)" }}
{{- end }}
{{- $v | toJson }}
{{- end }}

{{/* A number as the agent reads it: no exponent, no trailing zeros. */}}
{{- define "jvmsight.number" -}}
{{- regexReplaceAll "\\.?0+$" (printf "%.6f" (float64 .)) "" }}
{{- end }}

{{- define "jvmsight.image" -}}
{{- if .image.digest }}{{ printf "%s@%s" .image.repository .image.digest }}
{{- else }}{{ printf "%s:%s" .image.repository .image.tag }}
{{- end }}
{{- end }}

{{/* key=value,... after -agentpath:<lib>= (docs/OPTIONS.md). */}}
{{- define "jvmsight.agentOptions" -}}
{{- $a := .agent }}
{{- $opts := list }}
{{- $opts = append $opts (printf "port=%s" (include "jvmsight.number" $a.port)) }}
{{- $opts = append $opts (printf "host=%s" $a.host) }}
{{- $details := $a.details }}
{{- if kindIs "bool" $details }}{{ $details = ternary "on" "off" $details }}{{ end }}
{{- $opts = append $opts (printf "details=%s" $details) }}
{{- $opts = append $opts (printf "log=%s" $a.log) }}
{{- $opts = append $opts (printf "native_states=%s" $a.nativeStates) }}
{{- $opts = append $opts (printf "deadlock_check_ms=%s" (include "jvmsight.number" $a.deadlockCheckMs)) }}
{{- $opts = append $opts (printf "contention=%s" (ternary "on" "off" $a.contention)) }}
{{- if eq (toString $a.contentionSampling) "off" }}
{{- $opts = append $opts "contention_sampling=off" }}
{{- else }}
{{- $opts = append $opts (printf "contention_sampling=%s" (include "jvmsight.number" $a.contentionSampling)) }}
{{- end }}
{{- $opts = append $opts (printf "lock_classes=%s" (include "jvmsight.number" $a.lockClasses)) }}
{{- $opts = append $opts (printf "gc_notifications=%s" $a.gcNotifications) }}
{{- $opts = append $opts (printf "gc_span_min_ms=%s" (include "jvmsight.number" $a.gcSpanMinMs)) }}
{{- with $a.extraOptions }}{{ $opts = append $opts . }}{{ end }}
{{- join "," $opts }}
{{- end }}

{{- define "jvmsight.initContainer" -}}
{{- $v := include "jvmsight.v" . | fromJson -}}
- name: jvmsight-agent
  image: {{ include "jvmsight.image" $v | quote }}
  imagePullPolicy: {{ $v.image.pullPolicy }}
  # The image's copy step places the agent in /jvmsight and exits; an image
  # without it says so (the same command as the injector's and the
  # kustomize component's; docs/KUBERNETES.md).
  command:
    - /bin/busybox
    - sh
    - -c
    - "[ -f /bin/jvmsight-copy ] && exec /bin/busybox sh /bin/jvmsight-copy; echo 'jvmsight: the init container image is not a jvmsight-agent image of this release (no /bin/jvmsight-copy): use the agent image of the injector or chart that added it, and re-pull it where a node has an older copy of the tag' >&2; exit 1"
  # Its last line (why a copy failed) becomes the termination message.
  terminationMessagePolicy: FallbackToLogsOnError
  volumeMounts:
    - name: jvmsight-agent
      mountPath: /jvmsight
  resources: {{- toYaml $v.injection.initContainer.resources | nindent 4 }}
  securityContext: {{- toYaml $v.injection.initContainer.securityContext | nindent 4 }}
{{- end }}

{{/* An emptyDir: image volumes mount noexec, and the JVM maps the agent executable. */}}
{{- define "jvmsight.volume" -}}
{{- $v := include "jvmsight.v" . | fromJson -}}
- name: jvmsight-agent
  emptyDir:
    sizeLimit: {{ $v.injection.volumeSizeLimit }}
{{- end }}

{{- define "jvmsight.volumeMount" -}}
{{- $v := include "jvmsight.v" . | fromJson -}}
- name: jvmsight-agent
  mountPath: {{ $v.injection.mountPath }}
  readOnly: true
{{- end }}

{{- define "jvmsight.port" -}}
{{- $v := include "jvmsight.v" . | fromJson -}}
- name: jvmsight
  containerPort: {{ include "jvmsight.number" $v.agent.port }}
  protocol: TCP
{{- end }}

{{- define "jvmsight.podLabels" -}}
jvmsight/injected: "true"
jvmsight/release: {{ .Release.Name | quote }}
{{- end }}

{{- define "jvmsight.podAnnotations" -}}
{{- $v := include "jvmsight.v" . | fromJson -}}
{{- if $v.injection.scrapeAnnotations -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ include "jvmsight.number" $v.agent.port | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- end }}

{{- define "jvmsight.env" -}}
{{- $ctx := . }}
{{- $ownOptions := "" }}
{{- $ownAttributes := "" }}
{{- if hasKey . "context" }}
{{- $ctx = .context }}
{{- $ownOptions = .javaToolOptions | default "" }}
{{- $ownAttributes = .resourceAttributes | default "" }}
{{- end }}
{{- $v := include "jvmsight.v" $ctx | fromJson }}
{{- $agent := printf "-agentpath:%s/libjvmsight-loader.so=%s" $v.injection.mountPath (include "jvmsight.agentOptions" $v) -}}
- name: JAVA_TOOL_OPTIONS
  value: {{ list $ownOptions $agent | compact | join " " | quote }}
{{- if $v.injection.resourceAttributes }}
# Before OTEL_RESOURCE_ATTRIBUTES, so the kubelet can expand them there.
- name: JVMSIGHT_POD_NAME
  valueFrom: {fieldRef: {fieldPath: metadata.name}}
- name: JVMSIGHT_POD_NAMESPACE
  valueFrom: {fieldRef: {fieldPath: metadata.namespace}}
- name: JVMSIGHT_NODE_NAME
  valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ list $ownAttributes "k8s.pod.name=$(JVMSIGHT_POD_NAME),k8s.namespace.name=$(JVMSIGHT_POD_NAMESPACE),k8s.node.name=$(JVMSIGHT_NODE_NAME)" | compact | join "," | quote }}
{{- end }}
{{- end }}
