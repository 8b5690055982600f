"""The functions a query to a database source may call: an allow-list, not a deny-list.

A function is allowed when it computes a value from its arguments and the rows alone: aggregates,
window functions, arithmetic and math, text, dates and times, casts, conditionals, JSON, lists and
structs. Whatever reads or writes files, calls another server, runs a query given as text, reads or
changes a setting, a sequence, a lock or the server's statistics, or is unknown (a user's function,
an extension's) is not on the list, whatever its name: the guard refuses it by name (guard.py).

Functions sqlglot knows are checked by their sqlglot class (the same meaning in every dialect);
functions it parses as ``Anonymous`` by their name, from the names every dialect shares plus the
database's own.
"""

from __future__ import annotations

PURE_CLASSES = frozenset("""
    Count CountIf Sum Avg Min Max Median Quantile ApproxQuantile ApproxQuantiles PercentileCont PercentileDisc
    ApproxDistinct AnyValue ArgMax ArgMin First Last Stddev StddevPop StddevSamp Variance VariancePop Corr
    CovarPop CovarSamp LogicalAnd LogicalOr BitwiseAndAgg BitwiseOrAgg BitwiseXorAgg GroupConcat ArrayAgg
    ArrayConcatAgg ArrayUnionAgg ArrayUniqueAgg ApproxTopK ApproxTopSum Grouping Hll JSONObjectAgg JSONBObjectAgg
    JSONArrayAgg
    RowNumber Rank DenseRank PercentRank CumeDist Ntile Lag Lead FirstValue LastValue NthValue
    And Or Xor Case If Coalesce Nullif Nvl2 Greatest GreatestIgnoreNulls Least LeastIgnoreNulls EqualNull
    IsNan IsInf IsNullValue Exists Cast TryCast CastToStrType Try Collate Typeof
    Abs Sign Round Floor Ceil Sqrt Cbrt Exp Ln Log Pow Pi Degrees Radians Factorial Sin Cos Tan Cot Sec Csc
    Asin Acos Atan Atan2 Sinh Cosh Tanh Coth Sech Csch Asinh Acosh Atanh SafeAdd SafeSubtract SafeMultiply
    SafeDivide SafeNegate WidthBucket RangeBucket Rand Randn
    Lower Upper Initcap Length BitLength ByteLength Substring SubstringIndex Left Right Trim Pad Replace Repeat
    Reverse Concat ConcatWs StrPosition Contains StartsWith EndsWith Split SplitPart Translate Ascii Chr Unicode
    Space Stuff Overlay Format Levenshtein JarowinklerSimilarity Soundex SoundexP123 Normalize IsAscii
    RegexpLike RegexpILike RegexpFullMatch RegexpExtract RegexpExtractAll RegexpReplace RegexpSplit RegexpCount
    RegexpInstr RtrimmedLength Hex Unhex LowerHex HexEncode HexDecodeString MD5 MD5Digest SHA SHA1Digest SHA2
    SHA2Digest StandardHash FarmFingerprint Base64Encode Base64DecodeString Base64DecodeBinary ToBase64 FromBase64
    ToBase32 FromBase32 Encode Decode DecodeCase NumberToStr ToChar ToNumber ToDouble String Float64 Int64
    CurrentDate CurrentTime CurrentTimestamp CurrentDatetime CurrentTimestampLTZ UtcDate UtcTime UtcTimestamp
    Date Time Datetime Timestamp DateAdd DateSub DateDiff DateTrunc DateBin DateFromParts DateFromUnixDate
    DatetimeAdd DatetimeSub DatetimeDiff DatetimeTrunc TimeAdd TimeSub TimeDiff TimeTrunc TimeSlice
    TimestampAdd TimestampSub TimestampDiff TimestampTrunc TimestampFromParts TimeFromParts MakeInterval
    Extract Year Quarter Month Week WeekOfYear Day DayOfMonth DayOfWeek DayOfWeekIso DayOfYear Hour Minute Second
    YearOfWeek YearOfWeekIso Monthname LastDay NextDay PreviousDay AddMonths MonthsBetween ToDays
    JustifyDays JustifyHours JustifyInterval StrToDate StrToTime StrToUnix TimeToStr TimeToUnix TimeToTimeStr
    TimeStrToDate TimeStrToTime TimeStrToUnix UnixToStr UnixToTime UnixToTimeStr UnixDate UnixSeconds
    UnixMillis UnixMicros DateStrToDate DateToDateStr DateToDi DiToDate TsOrDiToDi TsOrDsAdd TsOrDsDiff
    TsOrDsToDate TsOrDsToDateStr TsOrDsToDatetime TsOrDsToTime TsOrDsToTimestamp ConvertTimezone
    FromISO8601Timestamp ParseDatetime ParseTime GenerateDateArray GenerateTimestampArray
    Array List Map VarMap StarMap MapFromEntries ToMap ToArray Struct StructExtract Columns ArraySize
    ArrayContains ArrayContainsAll ArrayOverlaps ArrayConcat ArraySlice ArraySort SortArray ArrayReverse
    ArrayRemove ArrayIntersect ArrayFirst ArrayLast ArraySum ArrayToString StringToArray ArrayFilter ArrayAll
    ArrayAny Transform Reduce
    JSONExtract JSONExtractScalar JSONExtractArray JSONBExtract JSONBExtractScalar JSONBContains JSONBExists
    JSONArray JSONObject JSONFormat JSONType JSONCast JSONExists JSONArrayContains JSONBool ParseJSON
    JSONStripNulls JSONValueArray JSONKeysAtDepth
    GenerateSeries ExplodingGenerateSeries Unnest Explode ExplodeOuter Posexplode PosexplodeOuter Inline
""".split())
"""sqlglot's function classes that compute a value from their arguments (and rows) only."""

_COMMON = """
    date_part datepart regr_slope regr_intercept regr_r2 regr_count regr_avgx regr_avgy regr_sxx regr_syy
    regr_sxy var_samp var_pop stddev_samp stddev_pop covar_samp covar_pop bool_and bool_or every mode
    kurtosis kurtosis_pop skewness entropy product trunc mod div log10 log2 gcd lcm isfinite even
    ifnull nvl iif lpad rpad ltrim rtrim btrim position instr strpos char_length character_length
    octet_length ascii chr concat_ws split_part starts_with ends_with contains regexp_matches regexp_match
    regexp_split_to_array string_to_array array_to_string array_length cardinality dayname monthname
    dayofweek dayofmonth dayofyear weekofyear weekday week yearweek isodow isoyear quarter hour minute second
    millisecond microsecond epoch epoch_ms epoch_us make_date make_time make_timestamp to_timestamp to_date
    to_char to_number date_add date_sub datediff date_diff date_trunc datetrunc age last_day time_bucket
    now today random md5 sha256 hash round_even percentile_approx approx_percentile collect_list collect_set
    size nullifzero zeroifnull
"""
_BY_DIALECT = {
    "duckdb": """
        strftime strptime list_value list_extract list_contains list_aggregate list_sort list_distinct
        list_unique array_extract string_split str_split regexp_full_match arg_max arg_min max_by min_by fsum
        favg histogram quantile_cont quantile_disc approx_count_distinct count_star first last any_value
        epoch_ns to_days to_months to_years to_weeks to_hours to_minutes to_seconds printf format bar
        list_slice array_slice len length_grapheme jaro_winkler_similarity levenshtein damerau_levenshtein
        hamming jaccard nfc_normalize strip_accents ord unicode prefix suffix
    """,
    "postgres": """
        to_char to_date to_timestamp to_number justify_days justify_hours justify_interval make_interval
        date_bin timezone format initcap percentile_cont percentile_disc string_agg array_agg json_agg
        jsonb_agg json_build_object jsonb_build_object json_extract_path_text jsonb_extract_path_text
        jsonb_typeof json_typeof num_nonnulls num_nulls width_bucket statement_timestamp
        transaction_timestamp clock_timestamp localtimestamp localtime
    """,
    "sqlite": """
        strftime julianday unixepoch date time datetime timediff printf format total group_concat likely
        unlikely likelihood hex unhex char instr substr ifnull iif sign
    """,
    "spark": """
        date_format from_unixtime unix_timestamp months_between add_months next_day pmod nanvl format_number
        format_string substring_index array_contains array_distinct array_max array_min sort_array
        percentile approx_count_distinct count_distinct first_value last_value std stddev timestamp_seconds
        timestamp_millis timestamp_micros
    """,
}
PURE_NAMES = {dialect: frozenset((_COMMON + names).split()) for dialect, names in _BY_DIALECT.items()}
"""Names of pure functions sqlglot parses as ``Anonymous``, per dialect."""
_OTHER = frozenset(_COMMON.split())

TABLE_FUNCTIONS = frozenset({"generate_series", "exploding_generate_series", "range", "unnest", "explode", "values"})
"""What a FROM may call instead of naming a table: rows made up from numbers or a list, nothing read."""

CATALOG_SCHEMAS = frozenset({"pg_catalog", "information_schema", "pg_toast", "mysql", "sys", "performance_schema"})
"""Schemas of the database's own catalog (roles, password hashes, settings, statistics)."""
CATALOG_PREFIXES = ("pg_", "duckdb_")
"""Names of catalog tables and views (``pg_shadow``, ``pg_authid``, ``duckdb_settings``): not the data."""


def pure_names(dialect: str) -> frozenset[str]:
    """The ``Anonymous`` names allowed in ``dialect`` (a dialect without a list of its own: the shared ones)."""
    return PURE_NAMES.get(dialect, _OTHER)
