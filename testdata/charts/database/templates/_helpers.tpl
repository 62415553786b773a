{{- define "database.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
database.secretValue returns the base64 value of key in the chart's Secret:
the value in values when given, else the one in the cluster (kept across
upgrades), else a new random one. Call with (dict "key" ... "value" ... "context" $).
*/}}
{{- define "database.secretValue" -}}
{{- $secret := lookup "v1" "Secret" .context.Release.Namespace (include "database.fullname" .context) -}}
{{- if .value -}}
{{- .value | b64enc -}}
{{- else if $secret -}}
{{- index $secret.data .key -}}
{{- else -}}
{{- randAlphaNum 16 | b64enc -}}
{{- end -}}
{{- end -}}
