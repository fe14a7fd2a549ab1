module soko

go 1.26.8
