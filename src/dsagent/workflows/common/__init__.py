"""Pieces shared by several workflows."""
