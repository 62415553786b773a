{{- define "webhook.fullname" -}}
{{- printf "%s-webhook" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "webhook.service" -}}
{{- printf "%s.%s.svc" (include "webhook.fullname" .) .Release.Namespace -}}
{{- end -}}
