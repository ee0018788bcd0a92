// PythonLexer: the tokens of Python 3.11. Rules have no actions: INDENT/DEDENT, the handling of
// newlines inside brackets and the lexical error checks live in the C++ base, PythonLexerBase.
lexer grammar PythonLexer;

options { superClass = PythonLexerBase; }

tokens { INDENT, DEDENT }

@header { #include "PythonLexerBase.h" }

// ---- keywords ----------------------------------------------------------------------------------
FALSE    : 'False';
NONE     : 'None';
TRUE     : 'True';
AND      : 'and';
AS       : 'as';
ASSERT   : 'assert';
ASYNC    : 'async';
AWAIT    : 'await';
BREAK    : 'break';
CLASS    : 'class';
CONTINUE : 'continue';
DEF      : 'def';
DEL      : 'del';
ELIF     : 'elif';
ELSE     : 'else';
EXCEPT   : 'except';
FINALLY  : 'finally';
FOR      : 'for';
FROM     : 'from';
GLOBAL   : 'global';
IF       : 'if';
IMPORT   : 'import';
IN       : 'in';
IS       : 'is';
LAMBDA   : 'lambda';
NONLOCAL : 'nonlocal';
NOT      : 'not';
OR       : 'or';
PASS     : 'pass';
RAISE    : 'raise';
RETURN   : 'return';
TRY      : 'try';
WHILE    : 'while';
WITH     : 'with';
YIELD    : 'yield';
// soft keywords: also usable as names (the parser's `name` rule accepts them)
MATCH    : 'match';
CASE     : 'case';

// ---- literals ----------------------------------------------------------------------------------
NAME : ID_START ID_CONTINUE*;

NUMBER : INTEGER | FLOAT_NUMBER | IMAG_NUMBER;

// `0777`: Python 3 rejects leading zeros in a decimal integer; a token of its own gives a clear
// message. (Longer float and imaginary literals such as `0777.5` still win.)
LEADING_ZERO_NUMBER : '0' [0-9_]* [1-9] [0-9_]*;

STRING : STRING_PREFIX? (SHORT_STRING | LONG_STRING);

// An opening quote whose string does not end on its line. Shorter than any complete STRING that
// starts at the same place, so it only wins when the string really is unterminated.
UNTERMINATED_STRING
  : STRING_PREFIX? ('\'' (STRING_ESCAPE | ~[\\\r\n'])* | '"' (STRING_ESCAPE | ~[\\\r\n"])*)
  ;

// ---- operators and delimiters ------------------------------------------------------------------
LPAR             : '(';
RPAR             : ')';
LSQB             : '[';
RSQB             : ']';
LBRACE           : '{';
RBRACE           : '}';
COLON            : ':';
COMMA            : ',';
SEMI             : ';';
PLUS             : '+';
MINUS            : '-';
STAR             : '*';
SLASH            : '/';
VBAR             : '|';
AMPER            : '&';
LESS             : '<';
GREATER          : '>';
EQUAL            : '=';
DOT              : '.';
PERCENT          : '%';
EQEQUAL          : '==';
NOTEQUAL         : '!=';
LESSEQUAL        : '<=';
GREATEREQUAL     : '>=';
TILDE            : '~';
CIRCUMFLEX       : '^';
LEFTSHIFT        : '<<';
RIGHTSHIFT       : '>>';
DOUBLESTAR       : '**';
PLUSEQUAL        : '+=';
MINEQUAL         : '-=';
STAREQUAL        : '*=';
SLASHEQUAL       : '/=';
PERCENTEQUAL     : '%=';
AMPEREQUAL       : '&=';
VBAREQUAL        : '|=';
CIRCUMFLEXEQUAL  : '^=';
LEFTSHIFTEQUAL   : '<<=';
RIGHTSHIFTEQUAL  : '>>=';
DOUBLESTAREQUAL  : '**=';
DOUBLESLASH      : '//';
DOUBLESLASHEQUAL : '//=';
AT               : '@';
ATEQUAL          : '@=';
RARROW           : '->';
ELLIPSIS         : '...';
COLONEQUAL       : ':=';

// ---- layout ------------------------------------------------------------------------------------
// Every physical newline; PythonLexerBase drops those inside brackets and on blank lines.
NEWLINE : '\r'? '\n' | '\r';

WS : [ \t\f]+ -> channel(HIDDEN);

COMMENT : '#' ~[\r\n]* -> channel(HIDDEN);

LINE_CONTINUATION : '\\' ('\r'? '\n' | '\r') -> channel(HIDDEN);

// Anything else: one character the lexer base reports (a lone `\`, `$`, `?`, ...). With it the
// lexer can never fail.
ERROR_CHAR : .;

// ---- fragments ---------------------------------------------------------------------------------
fragment STRING_PREFIX
  : [rRuUfFbB]
  | [rR] [bBfF]
  | [bBfF] [rR]
  ;

fragment SHORT_STRING
  : '\'' (STRING_ESCAPE | ~[\\\r\n'])* '\''
  | '"' (STRING_ESCAPE | ~[\\\r\n"])* '"'
  ;

fragment LONG_STRING
  : '\'\'\'' LONG_STRING_ITEM*? '\'\'\''
  | '"""' LONG_STRING_ITEM*? '"""'
  ;

fragment LONG_STRING_ITEM : STRING_ESCAPE | ~'\\';

// A backslash and the character after it (a line continuation inside a string is `\` + newline).
fragment STRING_ESCAPE : '\\' ('\r\n' | .);

fragment INTEGER : DEC_INTEGER | BIN_INTEGER | OCT_INTEGER | HEX_INTEGER;
fragment DEC_INTEGER : [1-9] ('_'? [0-9])* | '0' ('_'? '0')*;
fragment BIN_INTEGER : '0' [bB] ('_'? [01])+;
fragment OCT_INTEGER : '0' [oO] ('_'? [0-7])+;
fragment HEX_INTEGER : '0' [xX] ('_'? [0-9a-fA-F])+;

fragment FLOAT_NUMBER : POINT_FLOAT | EXPONENT_FLOAT;
fragment POINT_FLOAT : DIGIT_PART? '.' DIGIT_PART | DIGIT_PART '.';
fragment EXPONENT_FLOAT : (DIGIT_PART | POINT_FLOAT) [eE] [+-]? DIGIT_PART;
fragment IMAG_NUMBER : (FLOAT_NUMBER | DIGIT_PART) [jJ];
fragment DIGIT_PART : [0-9] ('_'? [0-9])*;

fragment ID_START : [_\p{L}\p{Nl}];
fragment ID_CONTINUE : [_\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}];
