package main

import (
	"time"

	"k8s.io/apimachinery/pkg/selection"
)

type selectionOperator = selection.Operator

var time_UTC = time.UTC
