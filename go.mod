module github.com/morrisgame/morris

go 1.26
