{{/*
The password: the one in the Secret when it exists (read with lookup, as
helm upgrade reads it), else a new random one (helm install, helm template).
*/}}
{{- define "db.password" -}}
{{- $s := lookup "v1" "Secret" .Release.Namespace (printf "%s-db" .Release.Name) -}}
{{- if and $s $s.data (index $s.data "password") -}}
{{- index $s.data "password" -}}
{{- else -}}
{{- randAlphaNum 24 | b64enc -}}
{{- end -}}
{{- end -}}
