package main

import (
	"debug/elf"
	"reflect"
	"testing"
)

func TestByAddressCountsAliasesOnce(t *testing.T) {
	got := byAddress([]elf.Symbol{
		{Name: "k8s.io/api/core/v1.init", Value: 0x1000, Size: 56},
		{Name: "local.k8s.io/api/core/v1.init", Value: 0x1000, Size: 56},
		{Name: "local.runtime.text", Value: 0x2000, Size: 8},
		{Name: "go:func.*", Value: 0x3000, Size: 100},
		{Name: "go:func.alias", Value: 0x3000, Size: 4},
	})
	want := map[string]int64{"k8s.io/api/core/v1.init": 56, "runtime.text": 8, "go:func.*": 100}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("byAddress = %v, want %v", got, want)
	}
}

func TestSectionKind(t *testing.T) {
	for name, want := range map[string]string{".text": "text", ".rodata": "rodata", ".typelink": "rodata", ".gopclntab": "pclntab", ".noptrdata": "data", ".debug_info": "DWARF", ".symtab": "symtab", ".strtab": "symtab", ".dynsym": "dynsym", ".dynstr": "dynsym", ".got": "other"} {
		if got := sectionKind(name); got != want {
			t.Errorf("sectionKind(%q) = %q, want %q", name, got, want)
		}
	}
}
